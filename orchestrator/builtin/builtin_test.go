package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"talk2tables/orchestrator/sqlgen"
)

// Date windows written by hand for the expected SQL.
const (
	thisMonth   = "BETWEEN date('now','start of month') AND date('now','start of month','+1 month','-1 day')"
	lastMonth   = "BETWEEN date('now','start of month','-1 month') AND date('now','start of month','-1 day')"
	thisYear    = "BETWEEN date('now','start of year') AND date('now','start of year','+1 year','-1 day')"
	lastYear    = "BETWEEN date('now','start of year','-1 year') AND date('now','start of year','-1 day')"
	qStart      = "date('now','start of month',printf('-%d months',(CAST(strftime('%m','now') AS INTEGER)-1)%3))"
	lastQuarter = ">= date(" + qStart + ",'-3 months') AND %s < " + qStart
)

func lastQ(col string) string {
	return col + " " + strings.Replace(lastQuarter, "%s", col, 1)
}

func salesQuestions() []question {
	return []question{
		// plain aggregates
		{name: "total revenue", q: "total revenue", want: "SELECT SUM(total_amount) FROM sales"},
		{name: "revenue bare", q: "Revenue?", want: "SELECT SUM(total_amount) FROM sales"},
		{name: "sum of sales amount", q: "what is the sum of sales amount", want: "SELECT SUM(total_amount) FROM sales"},
		{name: "how many orders", q: "How many orders?", want: "SELECT COUNT(*) FROM orders"},
		{name: "count of orders", q: "count of orders", want: "SELECT COUNT(order_id) FROM orders"},
		{name: "average discount", q: "average discount", want: "SELECT AVG(discount) FROM sales"},
		{name: "avg abbreviation", q: "avg discount", want: "SELECT AVG(discount) FROM sales"},
		{name: "mean selling price", q: "mean selling price", want: "SELECT AVG(unit_price) FROM sales"},
		{name: "number of customers", q: "number of customers", want: "SELECT COUNT(*) FROM customers"},
		{name: "how many products", q: "how many products do we have", want: "SELECT COUNT(*) FROM products"},
		{name: "highest discount", q: "highest discount", want: "SELECT MAX(discount) FROM sales"},
		{name: "max qty", q: "max qty", want: "SELECT MAX(quantity) FROM sales"},
		{name: "minimum unit price", q: "minimum unit price", want: "SELECT MIN(unit_price) FROM sales"},
		{name: "units sold", q: "total units sold", want: "SELECT SUM(quantity) FROM sales"},
		{name: "how many units", q: "how many units were sold", want: "SELECT SUM(quantity) FROM sales"},
		{name: "turnover", q: "turnover this year", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date " + thisYear},
		{name: "total revenue and quantity", q: "total revenue and quantity by region", want: "SELECT region, SUM(total_amount), SUM(quantity) FROM sales GROUP BY region"},

		// product aliases, case and typos
		{name: "alias this month", q: "sales for abracadabra this month", mayBeEmpty: true,
			want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 123 AND sale_date " + thisMonth},
		{name: "alias upper case", q: "Total revenue for ABRACADABRA", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 123"},
		{name: "typo one edit", q: "revenue for abracadbra", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 123"},
		{name: "typo supersonik", q: "How much revenue did supersonik make in 2025?",
			want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 789 AND sale_date BETWEEN '2025-01-01' AND '2025-12-31'"},
		{name: "multi-word alias", q: "units sold of trick cards last year",
			want: "SELECT SUM(quantity) FROM sales WHERE product_id = 124 AND sale_date " + lastYear},
		{name: "underscore alias", q: "revenue of magic_wand", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 123"},
		{name: "canonical name", q: "revenue for Noise Cancelling Headphones", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 790"},
		{name: "short alias qpu", q: "qty for qpu", want: "SELECT SUM(quantity) FROM sales WHERE product_id = 101"},
		{name: "alias average discount", q: "average discount on the drone", want: "SELECT AVG(discount) FROM sales WHERE product_id = 459"},
		{name: "alias count orders", q: "how many orders for quantum", want: "SELECT COUNT(DISTINCT order_id) FROM sales WHERE product_id = 101"},
		{name: "product label", q: "sales of the product espresso", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 202"},
		{name: "two products no compare", q: "revenue for hub and kettle", want: "SELECT p.product_name, SUM(s.total_amount) FROM sales s JOIN products p USING (product_id) WHERE s.product_id IN (457, 201) GROUP BY 1"},

		// categories, regions, segments, statuses
		{name: "category filter", q: "total sales in Electronics", want: "SELECT SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.category = 'Electronics'"},
		{name: "category with ampersand", q: "revenue from home & kitchen", want: "SELECT SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.category = 'Home & Kitchen'"},
		{name: "region filter", q: "sales in the North region", want: "SELECT SUM(total_amount) FROM sales WHERE region = 'North'"},
		{name: "region lower", q: "revenue west", want: "SELECT SUM(total_amount) FROM sales WHERE region = 'West'"},
		{name: "customers in region", q: "revenue for customers in the north", want: "SELECT SUM(s.total_amount) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id WHERE c.region = 'North'"},
		{name: "customer region term", q: "revenue where customer region is South", want: "SELECT SUM(s.total_amount) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id WHERE c.region = 'South'"},
		{name: "number of customers north", q: "number of customers in the north region", want: "SELECT COUNT(*) FROM customers WHERE region = 'North'"},
		{name: "segment filter", q: "revenue for small business customers", want: "SELECT SUM(s.total_amount) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id WHERE c.segment = 'Small Business'"},
		{name: "segment corporate discount", q: "total discount for corporate", want: "SELECT SUM(s.discount) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id WHERE c.segment = 'Corporate'"},
		{name: "status filter", q: "how many pending orders", want: "SELECT COUNT(*) FROM orders WHERE status = 'pending'"},
		{name: "status this year", q: "number of returned orders this year", want: "SELECT COUNT(*) FROM orders WHERE status = 'returned' AND order_date " + thisYear},
		{name: "excluding cancelled", q: "revenue excluding cancelled orders", want: "SELECT SUM(s.total_amount) FROM sales s JOIN orders o ON o.order_id = s.order_id WHERE o.status <> 'cancelled'"},
		{name: "excluding two statuses", q: "how many orders excluding cancelled and returned", want: "SELECT COUNT(*) FROM orders WHERE status NOT IN ('cancelled', 'returned')"},
		{name: "region and status", q: "revenue in the West excluding cancelled orders", want: "SELECT SUM(s.total_amount) FROM sales s JOIN orders o ON o.order_id = s.order_id WHERE s.region = 'West' AND o.status <> 'cancelled'"},
		{name: "category and region", q: "audio sales in the east", want: "SELECT SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.category = 'Audio' AND s.region = 'East'"},
		{name: "completed orders count", q: "count completed orders", want: "SELECT COUNT(*) FROM orders WHERE status = 'completed'"},

		// time windows
		{name: "today", q: "revenue today", mayBeEmpty: true, want: "SELECT SUM(total_amount) FROM sales WHERE sale_date = date('now')"},
		{name: "yesterday", q: "sales yesterday", mayBeEmpty: true, want: "SELECT SUM(total_amount) FROM sales WHERE sale_date = date('now','-1 day')"},
		{name: "last month", q: "revenue last month", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date " + lastMonth},
		{name: "previous month synonym", q: "revenue previous month", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date " + lastMonth},
		{name: "this week", q: "revenue this week", mayBeEmpty: true, want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= date('now','-6 days','weekday 1') AND sale_date <= date('now')"},
		{name: "last week", q: "how many orders last week", want: "SELECT COUNT(*) FROM orders WHERE order_date >= date('now','-6 days','weekday 1','-7 days') AND order_date < date('now','-6 days','weekday 1')"},
		{name: "last quarter", q: "revenue last quarter", want: "SELECT SUM(total_amount) FROM sales WHERE " + lastQ("sale_date")},
		{name: "in 2025", q: "revenue in 2025", want: "SELECT SUM(total_amount) FROM sales WHERE substr(sale_date,1,4) = '2025'"},
		{name: "month and year", q: "revenue in March 2026", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date LIKE '2026-03-%'"},
		{name: "abbreviated month", q: "qty in sept 2025", want: "SELECT SUM(quantity) FROM sales WHERE sale_date LIKE '2025-09-%'"},
		{name: "last 90 days", q: "revenue last 90 days", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= date('now','-90 days')"},
		{name: "past 14 days", q: "sales over the past 14 days", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= date('now','-14 days')"},
		{name: "since iso", q: "revenue since 2026-01-01", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= '2026-01-01'"},
		{name: "between iso", q: "sales for trick cards between 2025-06-01 and 2025-08-31", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 124 AND sale_date BETWEEN '2025-06-01' AND '2025-08-31'"},
		{name: "between months", q: "revenue between January and March 2026", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= '2026-01-01' AND sale_date < '2026-04-01'"},
		{name: "from to months", q: "units sold from june 2025 to august 2025", want: "SELECT SUM(quantity) FROM sales WHERE sale_date BETWEEN '2025-06-01' AND '2025-08-31'"},
		{name: "quarter literal", q: "what were the sales of cardistry in q3 2025?", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 124 AND sale_date >= '2025-07-01' AND sale_date < '2025-10-01'"},
		{name: "ytd", q: "total revenue ytd", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= date('now','start of year')"},
		{name: "last 30 days", q: "how many orders in the last 30 days", want: "SELECT COUNT(*) FROM orders WHERE order_date >= date('now','-30 days')"},
		{name: "customers signup window", q: "how many customers this year", want: "SELECT COUNT(*) FROM customers WHERE signup_date " + thisYear},
		{name: "joined term as date column", q: "number of customers joined last year", want: "SELECT COUNT(*) FROM customers WHERE signup_date " + lastYear},

		// grouping
		{name: "by region", q: "revenue by region", want: "SELECT region, SUM(total_amount) FROM sales GROUP BY region"},
		{name: "per category", q: "revenue per category", want: "SELECT p.category, SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id GROUP BY p.category"},
		{name: "shouting by category", q: "REVENUE BY CATEGORY THIS YEAR", want: "SELECT p.category, SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE s.sale_date " + thisYear + " GROUP BY p.category"},
		{name: "punctuated", q: "Revenue, by Region, last quarter!!", want: "SELECT region, SUM(total_amount) FROM sales WHERE " + lastQ("sale_date") + " GROUP BY region"},
		{name: "monthly trend", q: "monthly revenue trend", ordered: true, want: "SELECT substr(sale_date,1,7) AS m, SUM(total_amount) FROM sales GROUP BY m ORDER BY m"},
		{name: "by month in year", q: "revenue by month in 2025", ordered: true, want: "SELECT substr(sale_date,1,7) AS m, SUM(total_amount) FROM sales WHERE sale_date LIKE '2025%' GROUP BY m ORDER BY m"},
		{name: "trend for alias", q: "qty sold per month for abra", ordered: true, want: "SELECT substr(sale_date,1,7) AS m, SUM(quantity) FROM sales WHERE product_id = 123 GROUP BY m ORDER BY m"},
		{name: "for each product", q: "sales for each product", want: "SELECT p.product_name, SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id GROUP BY p.product_name"},
		{name: "by customer segment", q: "revenue by customer segment", want: "SELECT c.segment, SUM(s.total_amount) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.segment"},
		{name: "by customer region", q: "revenue by customer region", want: "SELECT c.region, SUM(s.total_amount) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.region"},
		{name: "customers by region", q: "how many customers by region", want: "SELECT region, COUNT(*) FROM customers GROUP BY region"},
		{name: "orders by status", q: "number of orders by status", want: "SELECT status, COUNT(*) FROM orders GROUP BY status"},
		{name: "orders by month", q: "orders by month this year", ordered: true, want: "SELECT substr(order_date,1,7) AS m, COUNT(*) FROM orders WHERE order_date " + thisYear + " GROUP BY m ORDER BY m"},
		{name: "orders per segment", q: "how many orders per customer segment", want: "SELECT c.segment, COUNT(o.order_id) FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.segment"},
		{name: "products per category", q: "number of products per category", want: "SELECT category, COUNT(*) FROM products GROUP BY category"},
		{name: "avg discount by segment", q: "avg discount by segment", want: "SELECT c.segment, AVG(s.discount) FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.segment"},
		{name: "avg price by category", q: "average unit price by category", want: "SELECT p.category, AVG(s.unit_price) FROM sales s JOIN products p ON p.product_id = s.product_id GROUP BY p.category"},
		{name: "product by category filter", q: "sales by product for electronics in 2025", want: "SELECT p.product_name, SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.category = 'Electronics' AND s.sale_date LIKE '2025%' GROUP BY p.product_name"},
		{name: "category by month last 6 months", q: "sales of home & kitchen products by month last 6 months", ordered: true, want: "SELECT substr(s.sale_date,1,7) AS m, SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.category = 'Home & Kitchen' AND s.sale_date >= date('now','-6 months') GROUP BY m ORDER BY m"},
		{name: "quarterly", q: "quarterly revenue in 2025", ordered: true, want: "SELECT '2025-Q' || ((CAST(substr(sale_date,6,2) AS INTEGER)+2)/3) AS q, SUM(total_amount) FROM sales WHERE sale_date LIKE '2025%' GROUP BY q ORDER BY q"},
		{name: "yearly", q: "yearly revenue", ordered: true, want: "SELECT substr(sale_date,1,4) AS y, SUM(total_amount) FROM sales GROUP BY y ORDER BY y"},
		{name: "region wise", q: "region wise sales", want: "SELECT region, SUM(total_amount) FROM sales GROUP BY region"},

		// ranking
		{name: "top 5 products", q: "top 5 products by revenue", want: "SELECT p.product_name, SUM(s.total_amount) AS r FROM sales s JOIN products p ON p.product_id = s.product_id GROUP BY p.product_name ORDER BY r DESC LIMIT 5"},
		{name: "top five words", q: "Top five products by revenue last year", want: "SELECT p.product_name, SUM(s.total_amount) AS r FROM sales s JOIN products p ON p.product_id = s.product_id WHERE s.sale_date " + lastYear + " GROUP BY p.product_name ORDER BY r DESC LIMIT 5"},
		{name: "bottom 3 regions", q: "bottom 3 regions by revenue", want: "SELECT region, SUM(total_amount) AS r FROM sales GROUP BY region ORDER BY r ASC LIMIT 3"},
		{name: "bottom 3 regions default measure", q: "bottom 3 regions", want: "SELECT region, SUM(total_amount) AS r FROM sales GROUP BY region ORDER BY r ASC LIMIT 3"},
		{name: "best selling product", q: "best selling product", want: "SELECT p.product_name, SUM(s.quantity) AS u FROM sales s JOIN products p ON p.product_id = s.product_id GROUP BY p.product_name ORDER BY u DESC LIMIT 1"},
		{name: "best selling this year", q: "what's the best-selling product this year?", want: "SELECT p.product_name, SUM(s.quantity) AS u FROM sales s JOIN products p ON p.product_id = s.product_id WHERE s.sale_date " + thisYear + " GROUP BY p.product_name ORDER BY u DESC LIMIT 1"},
		{name: "which region highest", q: "Which region has the highest revenue?", want: "SELECT region, SUM(total_amount) AS r FROM sales GROUP BY region ORDER BY r DESC LIMIT 1"},
		{name: "region with lowest", q: "region with the lowest sales last month", want: "SELECT region, SUM(total_amount) AS r FROM sales WHERE sale_date " + lastMonth + " GROUP BY region ORDER BY r ASC LIMIT 1"},
		{name: "top 3 categories units", q: "what are the top 3 categories by units sold this year", want: "SELECT p.category, SUM(s.quantity) AS u FROM sales s JOIN products p ON p.product_id = s.product_id WHERE s.sale_date " + thisYear + " GROUP BY p.category ORDER BY u DESC LIMIT 3"},
		{name: "top 3 customers", q: "top 3 customers by revenue", want: "SELECT c.customer_name, SUM(s.total_amount) AS r FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.customer_name ORDER BY r DESC LIMIT 3"},
		{name: "top 5 orders", q: "top 5 orders by revenue", want: "SELECT o.order_id, SUM(s.total_amount) AS r FROM orders o JOIN sales s ON s.order_id = o.order_id GROUP BY o.order_id ORDER BY r DESC LIMIT 5"},
		{name: "top products in category", q: "top 3 audio products by qty", want: "SELECT p.product_name, SUM(s.quantity) AS u FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.category = 'Audio' GROUP BY p.product_name ORDER BY u DESC LIMIT 3"},

		// comparisons
		{name: "compare two products", q: "compare abracadabra and supersonic sales last quarter", want: "SELECT p.product_name, SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.product_id IN (123, 789) AND " + lastQ("s.sale_date") + " GROUP BY p.product_name"},
		{name: "versus", q: "revenue for abracadabra vs supersonic", want: "SELECT p.product_name, SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.product_id IN (123, 789) GROUP BY p.product_name"},
		{name: "compare regions", q: "compare north and south revenue this year", want: "SELECT region, SUM(total_amount) FROM sales WHERE region IN ('North','South') AND sale_date " + thisYear + " GROUP BY region"},
		{name: "compare with typo", q: "compare supersonik with the drone", want: "SELECT p.product_name, SUM(s.total_amount) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.product_id IN (789, 459) GROUP BY p.product_name"},

		// listings
		{name: "10 most recent orders", q: "show the 10 most recent orders for quantum", want: "SELECT DISTINCT o.order_id, o.customer_id, o.order_date, o.status FROM orders o JOIN sales s ON s.order_id = o.order_id WHERE s.product_id = 101 ORDER BY o.order_date DESC, o.order_id DESC LIMIT 10"},
		{name: "list products in category", q: "list products in Electronics", want: "SELECT product_id, product_name, category, unit_price FROM products WHERE category = 'Electronics' ORDER BY product_id LIMIT 100"},
		{name: "which products", q: "which products are in audio?", want: "SELECT product_id, product_name, category, unit_price FROM products WHERE category = 'Audio' ORDER BY product_id LIMIT 100"},
		{name: "latest order", q: "show me the latest order", want: "SELECT order_id, customer_id, order_date, status FROM orders ORDER BY order_date DESC, order_id DESC LIMIT 1"},
		{name: "oldest customers", q: "list the 5 oldest customers", want: "SELECT customer_id, customer_name, email, region, segment, signup_date FROM customers ORDER BY signup_date, customer_id LIMIT 5"},
		{name: "pending orders", q: "list pending orders", want: "SELECT order_id, customer_id, order_date, status FROM orders WHERE status = 'pending' ORDER BY order_id LIMIT 100"},
		{name: "last 3 sales", q: "last 3 transactions", want: "SELECT sale_id, order_id, product_id, quantity, unit_price, discount, total_amount, sale_date, region FROM sales ORDER BY sale_date DESC, sale_id DESC LIMIT 3"},
		{name: "list categories", q: "list categories", want: "SELECT DISTINCT category FROM products ORDER BY category"},
		{name: "what regions", q: "what regions are there", want: "SELECT DISTINCT region FROM sales ORDER BY region"},
		{name: "customers who bought", q: "list customers who bought the turntable", want: "SELECT DISTINCT c.customer_id, c.customer_name, c.email, c.region, c.segment, c.signup_date FROM customers c JOIN orders o ON o.customer_id = c.customer_id JOIN sales s ON s.order_id = o.order_id WHERE s.product_id = 793 ORDER BY c.customer_id LIMIT 100"},

		// counts through joins
		{name: "customers who bought count", q: "how many customers bought abracadabra", want: "SELECT COUNT(DISTINCT o.customer_id) FROM orders o JOIN sales s ON s.order_id = o.order_id WHERE s.product_id = 123"},
		{name: "distinct categories count", q: "how many categories", want: "SELECT COUNT(DISTINCT category) FROM products"},
		{name: "orders for category", q: "number of orders for gadgets in electronics", want: "SELECT COUNT(DISTINCT s.order_id) FROM sales s JOIN products p ON p.product_id = s.product_id WHERE p.product_id = 456 AND p.category = 'Electronics'"},
		{name: "unknown product near miss", q: "number of orders for widgets in electronics", wantDecline: true},
		{name: "ambiguous typo", q: "revenue for smart hob", wantDecline: true},
	}
}

func TestGenerateSalesQuestions(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	qs := salesQuestions()
	n := 0
	for _, c := range qs {
		if c.wantDecline {
			continue
		}
		n++
		t.Run(c.name, func(t *testing.T) { e.check(t, g, c) })
	}
	if n < 80 {
		t.Errorf("%d answered questions, want at least 80", n)
	}
}

func declinedQuestions() []string {
	return []string{
		"",
		"   ?!  ",
		"delete all orders",
		"DROP TABLE sales",
		"update the price of abracadabra to 10",
		"insert a new customer",
		"why did sales drop last month?",
		"what will revenue be next month",
		"predict revenue for 2027",
		"tell me something interesting",
		"sales for zorblax",
		"revenue in Atlantis",
		"revenue by weather",
		"asdf qwerty",
		"how many",
		"show me",
		"abracadabra",
		"what is the average order value",
		"sum of regions",
		"average customer",
		"revenue by discount",
		"compare this month and last month",
		"compare revenue",
		"average revenue per customer",
		"which is better",
		"revenue for abracadabra in the north and email",
		"sales 42",
		"top 5",
		"best",
		"revenue by",
		"profit margin by region",
		"what is the meaning of life",
		"total revenue and number of orders",
		"list orders and customers",
		"revenue last 2 fortnights",
		"sales by customer per qwerty",
	}
}

func TestGenerateDeclines(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	qs := declinedQuestions()
	if len(qs) < 20 {
		t.Fatalf("%d declined questions, want at least 20", len(qs))
	}
	for _, q := range qs {
		t.Run(q, func(t *testing.T) { e.declines(t, g, q) })
	}
	for _, c := range salesQuestions() {
		if c.wantDecline {
			t.Run(c.name, func(t *testing.T) { e.declines(t, g, c.q) })
		}
	}
}

func TestDeclineMessageSaysWhatWasUnderstood(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Question = "revenue for abracadabra by weather"
	_, err := New(nil).Generate(context.Background(), req)
	var ge *sqlgen.SQLGenerationError
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v, want SQLGenerationError", err)
	}
	for _, want := range []string{"configure an LLM", `"weather"`, "abracadabra", "sales.total_amount"} {
		if !strings.Contains(ge.Message, want) {
			t.Errorf("message %q lacks %q", ge.Message, want)
		}
	}
}

func TestResolvedEntities(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Question = "revenue for abracadbra in the north excluding cancelled orders last month"
	plan, err := New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	want := map[string]map[string]string{
		"abracadbra": {"products.product_id": "123"},
		"revenue":    {"column": "sales.total_amount"},
		"north":      {"sales.region": "North"},
		"cancelled":  {"orders.status": "cancelled"},
	}
	for k, kv := range want {
		got, ok := plan.ResolvedEntities[k]
		if !ok {
			t.Errorf("resolved_entities lacks %q: %v", k, plan.ResolvedEntities)
			continue
		}
		for kk, vv := range kv {
			if got[kk] != vv {
				t.Errorf("resolved_entities[%q][%q] = %q, want %q", k, kk, got[kk], vv)
			}
		}
	}
	expr := plan.ResolvedEntities["last month"]["expression"]
	if !strings.Contains(expr, "sales.sale_date") || strings.Contains(expr, "{date_column}") {
		t.Errorf("last month expression = %q, want it applied to sales.sale_date", expr)
	}
	if plan.Confidence >= 0.9 {
		t.Errorf("confidence = %v, want it lowered for a typo", plan.Confidence)
	}
	if !strings.Contains(plan.Explanation, "abracadabra") {
		t.Errorf("explanation %q does not mention the typo reading", plan.Explanation)
	}
}

func TestEarlierServerWins(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	// a preferred server redefines "revenue" as the quantity and "abra" as product 456
	override := sqlgen.ServerContext{ID: "override", Priority: 0, Resources: map[string]any{
		"x://terms": map[string]any{"user_friendly_terms": map[string]any{"revenue": "sales.quantity"}},
		"x://aliases": map[string]any{"gadget": map[string]any{
			"canonical_id": "456", "aliases": []any{"abra"},
			"database_references": map[string]any{"products.product_id": float64(456), "products.product_name": "TechGadget"},
		}},
	}}
	req.Servers = append([]sqlgen.ServerContext{override}, req.Servers...)
	req.Question = "revenue for abra"
	plan, err := New(nil).Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	got := e.rows(t, plan.SQL)
	want := e.rows(t, "SELECT SUM(quantity) FROM sales WHERE product_id = 456")
	if err := sameRows(got, want, true); err != nil {
		t.Errorf("SQL %s: %v", plan.SQL, err)
	}
}

func TestNoSchemaDeclines(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Servers = req.Servers[:1]
	req.Question = "total revenue"
	_, err := New(nil).Generate(context.Background(), req)
	var ge *sqlgen.SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
		t.Fatalf("err = %v, want declined", err)
	}
}

func TestRepairDeclines(t *testing.T) {
	e := salesEnv(t)
	req := e.req
	req.Question = "total revenue"
	req.Repair = &sqlgen.Repair{Attempt: 1, FailedSQL: "SELECT 1", Error: "boom"}
	_, err := New(nil).Generate(context.Background(), req)
	var ge *sqlgen.SQLGenerationError
	if !errors.As(err, &ge) || ge.Reason != sqlgen.ReasonDeclined {
		t.Fatalf("err = %v, want declined", err)
	}
}

func TestCanceledContext(t *testing.T) {
	e := salesEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := e.req
	req.Question = "total revenue"
	if _, err := New(nil).Generate(ctx, req); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestModelCacheFollowsResources(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	req := e.req
	req.Question = "total revenue"
	if _, err := g.Generate(context.Background(), req); err != nil {
		t.Fatalf("Generate: %v", err)
	}
	m1 := g.model(req.Servers)
	if m2 := g.model(req.Servers); m1 != m2 {
		t.Errorf("same resources compiled twice")
	}
	// a refreshed metadata resource (new map) must be recompiled
	servers := append([]sqlgen.ServerContext(nil), req.Servers...)
	res := map[string]any{}
	for k, v := range servers[0].Resources {
		res[k] = v
	}
	res["metadata://column_mappings"] = map[string]any{"user_friendly_terms": map[string]any{"takings": "sales.total_amount"}}
	servers[0].Resources = res
	if m3 := g.model(servers); m3 == m1 {
		t.Errorf("changed resources reused the old model")
	}
	req.Servers = servers
	req.Question = "takings by category"
	if _, err := g.Generate(context.Background(), req); err != nil {
		t.Errorf("Generate with refreshed terms: %v", err)
	}
}

func TestConcurrentGenerate(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	qs := salesQuestions()
	done := make(chan error, 8)
	for w := 0; w < 8; w++ {
		go func(w int) {
			for i := w; i < len(qs); i += 8 {
				req := e.req
				req.Question = qs[i].q
				if _, err := g.Generate(context.Background(), req); err != nil && !qs[i].wantDecline {
					done <- err
					return
				}
			}
			done <- nil
		}(w)
	}
	for w := 0; w < 8; w++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	e := salesEnv(b)
	g := New(nil)
	qs := salesQuestions()
	ctx := context.Background()
	req := e.req
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req.Question = qs[i%len(qs)].q
		_, _ = g.Generate(ctx, req)
	}
}
