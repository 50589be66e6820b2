package builtin

import "testing"

// Joins of the sample database, for the hand-written SQL.
const (
	sp  = " FROM sales s JOIN products p ON p.product_id = s.product_id"
	soc = " FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id"
	so  = " FROM sales s JOIN orders o ON o.order_id = s.order_id"
)

// salesQuestions are the sample database's everyday questions, each with
// the hand-written SQL whose rows the answer must match. Today is asOf
// (2026-11-21, a Saturday).
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
		{name: "turnover", q: "turnover this year", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= '2026-01-01'"},
		{name: "total revenue and quantity", q: "total revenue and quantity by region", want: "SELECT region, SUM(total_amount), SUM(quantity) FROM sales GROUP BY region"},
		{name: "average sale amount", q: "average sale amount", want: "SELECT AVG(total_amount) FROM sales"},
		{name: "how many sales", q: "how many sales", want: "SELECT COUNT(*) FROM sales"},

		// named products: aliases, case, typos
		{name: "alias this month", q: "sales for abracadabra this month", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 123 AND sale_date >= '2026-11-01'"},
		{name: "alias upper case", q: "Total revenue for ABRACADABRA", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 123"},
		{name: "typo one edit", q: "revenue for abracadbra", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 123"},
		{name: "typo supersonik", q: "How much revenue did supersonik make in 2025?",
			want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 789 AND sale_date BETWEEN '2025-01-01' AND '2025-12-31'"},
		{name: "multi-word alias", q: "units sold of trick cards last year",
			want: "SELECT SUM(quantity) FROM sales WHERE product_id = 124 AND sale_date LIKE '2025-%'"},
		{name: "underscore alias", q: "revenue of magic_wand", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 123"},
		{name: "canonical name", q: "revenue for Noise Cancelling Headphones", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 790"},
		{name: "canonical name typo", q: "revenue for Noise Canceling Headphones", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 790"},
		{name: "short alias qpu", q: "qty for qpu", want: "SELECT SUM(quantity) FROM sales WHERE product_id = 101"},
		{name: "alias average discount", q: "average discount on the drone", want: "SELECT AVG(discount) FROM sales WHERE product_id = 459"},
		{name: "alias count orders", q: "how many orders for quantum", want: "SELECT COUNT(DISTINCT order_id) FROM sales WHERE product_id = 101"},
		{name: "product label", q: "sales of the product espresso", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 202"},
		{name: "two products", q: "revenue for hub and kettle", want: "SELECT p.product_id, p.product_name, SUM(s.total_amount)" + sp + " WHERE s.product_id IN (457, 201) GROUP BY p.product_id"},
		{name: "price of a product", q: "what is the price of abracadabra", want: "SELECT unit_price FROM products WHERE product_id = 123"},
		{name: "list price of a product", q: "list price of the drone", want: "SELECT unit_price FROM products WHERE product_id = 459"},
		{name: "category of a product", q: "category of supersonic", want: "SELECT category FROM products WHERE product_id = 789"},
		{name: "average price of products in category", q: "average unit price of products in Audio", want: "SELECT AVG(unit_price) FROM products WHERE category = 'Audio'"},
		{name: "average selling price of a product", q: "average price for abracadabra", want: "SELECT AVG(unit_price) FROM sales WHERE product_id = 123"},

		// categories, regions, segments, statuses
		{name: "category filter", q: "total sales in Electronics", want: "SELECT SUM(s.total_amount)" + sp + " WHERE p.category = 'Electronics'"},
		{name: "category with ampersand", q: "revenue from home & kitchen", want: "SELECT SUM(s.total_amount)" + sp + " WHERE p.category = 'Home & Kitchen'"},
		{name: "region filter", q: "sales in the North region", want: "SELECT SUM(total_amount) FROM sales WHERE region = 'North'"},
		{name: "region lower", q: "revenue west", want: "SELECT SUM(total_amount) FROM sales WHERE region = 'West'"},
		{name: "customers in region", q: "revenue for customers in the north", want: "SELECT SUM(s.total_amount)" + soc + " WHERE c.region = 'North'"},
		{name: "customer region term", q: "revenue where customer region is South", want: "SELECT SUM(s.total_amount)" + soc + " WHERE c.region = 'South'"},
		{name: "number of customers north", q: "number of customers in the north region", want: "SELECT COUNT(*) FROM customers WHERE region = 'North'"},
		{name: "value, its column, then the counted table", q: "how many Corporate segment customers do we have", want: "SELECT COUNT(*) FROM customers WHERE segment = 'Corporate'"},
		{name: "value and column before the table, plural", q: "how many pending status orders", want: "SELECT COUNT(*) FROM orders WHERE status = 'pending'"},
		{name: "segment filter", q: "revenue for small business customers", want: "SELECT SUM(s.total_amount)" + soc + " WHERE c.segment = 'Small Business'"},
		{name: "segment average discount", q: "average discount for corporate customers", want: "SELECT AVG(s.discount)" + soc + " WHERE c.segment = 'Corporate'"},
		{name: "status filter", q: "how many pending orders", want: "SELECT COUNT(*) FROM orders WHERE status = 'pending'"},
		{name: "status this year", q: "number of returned orders this year", want: "SELECT COUNT(*) FROM orders WHERE status = 'returned' AND order_date >= '2026-01-01'"},
		{name: "excluding cancelled", q: "revenue excluding cancelled orders", want: "SELECT SUM(s.total_amount)" + so + " WHERE o.status <> 'cancelled'"},
		{name: "excluding two statuses", q: "how many orders excluding cancelled and returned", want: "SELECT COUNT(*) FROM orders WHERE status NOT IN ('cancelled', 'returned')"},
		{name: "region and status", q: "revenue in the West excluding cancelled orders", want: "SELECT SUM(s.total_amount)" + so + " WHERE s.region = 'West' AND o.status <> 'cancelled'"},
		{name: "category and region", q: "audio sales in the east", want: "SELECT SUM(s.total_amount)" + sp + " WHERE p.category = 'Audio' AND s.region = 'East'"},
		{name: "completed orders count", q: "count completed orders", want: "SELECT COUNT(*) FROM orders WHERE status = 'completed'"},
		{name: "not in category", q: "revenue not in Electronics", want: "SELECT SUM(s.total_amount)" + sp + " WHERE p.category <> 'Electronics'"},

		// time windows (today is 2026-11-21)
		{name: "today", q: "revenue today", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date = '2026-11-21'"},
		{name: "yesterday", q: "sales yesterday", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date = '2026-11-20'"},
		{name: "last month", q: "revenue last month", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date LIKE '2026-10-%'"},
		{name: "previous month synonym", q: "revenue previous month", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date LIKE '2026-10-%'"},
		{name: "this week", q: "revenue this week", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date BETWEEN '2026-11-16' AND '2026-11-22'"},
		{name: "last week", q: "how many orders last week", want: "SELECT COUNT(*) FROM orders WHERE order_date BETWEEN '2026-11-09' AND '2026-11-15'"},
		{name: "last quarter", q: "revenue last quarter", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= '2026-07-01' AND sale_date < '2026-10-01'"},
		{name: "in 2025", q: "revenue in 2025", want: "SELECT SUM(total_amount) FROM sales WHERE substr(sale_date,1,4) = '2025'"},
		{name: "month and year", q: "revenue in March 2026", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date LIKE '2026-03-%'"},
		{name: "abbreviated month", q: "qty in sept 2025", want: "SELECT SUM(quantity) FROM sales WHERE sale_date LIKE '2025-09-%'"},
		{name: "last 90 days", q: "revenue last 90 days", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date BETWEEN '2026-08-24' AND '2026-11-21'"},
		{name: "last 7 days is 7 days", q: "revenue in the last 7 days", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date BETWEEN '2026-11-15' AND '2026-11-21'"},
		{name: "past 14 days", q: "sales over the past 14 days", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= '2026-11-08'"},
		{name: "since iso", q: "revenue since 2026-01-01", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= '2026-01-01'"},
		{name: "between iso", q: "sales for trick cards between 2025-06-01 and 2025-08-31", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 124 AND sale_date BETWEEN '2025-06-01' AND '2025-08-31'"},
		{name: "between months", q: "revenue between January and March 2026", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= '2026-01-01' AND sale_date < '2026-04-01'"},
		{name: "from to months", q: "units sold from june 2025 to august 2025", want: "SELECT SUM(quantity) FROM sales WHERE sale_date BETWEEN '2025-06-01' AND '2025-08-31'"},
		{name: "quarter literal", q: "what were the sales of cardistry in q3 2025?", want: "SELECT SUM(total_amount) FROM sales WHERE product_id = 124 AND sale_date >= '2025-07-01' AND sale_date < '2025-10-01'"},
		{name: "ytd", q: "total revenue ytd", want: "SELECT SUM(total_amount) FROM sales WHERE sale_date >= '2026-01-01'"},
		{name: "last 30 days", q: "how many orders in the last 30 days", want: "SELECT COUNT(*) FROM orders WHERE order_date >= '2026-10-23'"},
		{name: "customers signup window", q: "how many customers this year", want: "SELECT COUNT(*) FROM customers WHERE signup_date >= '2026-01-01'"},
		{name: "joined term as date column", q: "number of customers joined last year", want: "SELECT COUNT(*) FROM customers WHERE signup_date LIKE '2025-%'"},

		// grouping
		{name: "by region", q: "revenue by region", want: "SELECT region, SUM(total_amount) FROM sales GROUP BY region"},
		{name: "per category", q: "revenue per category", want: "SELECT p.category, SUM(s.total_amount)" + sp + " GROUP BY p.category"},
		{name: "shouting by category", q: "REVENUE BY CATEGORY THIS YEAR", want: "SELECT p.category, SUM(s.total_amount)" + sp + " WHERE s.sale_date >= '2026-01-01' GROUP BY p.category"},
		{name: "punctuated", q: "Revenue, by Region, last quarter!!", want: "SELECT region, SUM(total_amount) FROM sales WHERE sale_date BETWEEN '2026-07-01' AND '2026-09-30' GROUP BY region"},
		{name: "monthly trend", q: "monthly revenue trend", ordered: true, want: "SELECT substr(sale_date,1,7) AS m, SUM(total_amount) FROM sales GROUP BY m ORDER BY m"},
		{name: "by month in year", q: "revenue by month in 2025", ordered: true, want: "SELECT substr(sale_date,1,7) AS m, SUM(total_amount) FROM sales WHERE sale_date LIKE '2025%' GROUP BY m ORDER BY m"},
		{name: "trend for alias", q: "qty sold per month for abra", ordered: true, want: "SELECT substr(sale_date,1,7) AS m, SUM(quantity) FROM sales WHERE product_id = 123 GROUP BY m ORDER BY m"},
		{name: "for each product", q: "sales for each product", want: "SELECT p.product_id, p.product_name, SUM(s.total_amount)" + sp + " GROUP BY p.product_id"},
		{name: "by customer segment", q: "revenue by customer segment", want: "SELECT c.segment, SUM(s.total_amount)" + soc + " GROUP BY c.segment"},
		{name: "by customer region", q: "revenue by customer region", want: "SELECT c.region, SUM(s.total_amount)" + soc + " GROUP BY c.region"},
		{name: "customers by region", q: "how many customers by region", want: "SELECT region, COUNT(*) FROM customers GROUP BY region"},
		{name: "orders by status", q: "number of orders by status", want: "SELECT status, COUNT(*) FROM orders GROUP BY status"},
		{name: "orders by month", q: "orders by month this year", ordered: true, want: "SELECT substr(order_date,1,7) AS m, COUNT(*) FROM orders WHERE order_date >= '2026-01-01' GROUP BY m ORDER BY m"},
		{name: "orders per segment", q: "how many orders per customer segment", want: "SELECT c.segment, COUNT(o.order_id) FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.segment"},
		{name: "products per category", q: "number of products per category", want: "SELECT category, COUNT(*) FROM products GROUP BY category"},
		{name: "avg discount by segment", q: "avg discount by segment", want: "SELECT c.segment, AVG(s.discount)" + soc + " GROUP BY c.segment"},
		{name: "avg price by category", q: "average unit price by category", want: "SELECT p.category, AVG(s.unit_price)" + sp + " GROUP BY p.category"},
		{name: "product by category filter", q: "sales by product for electronics in 2025", want: "SELECT p.product_id, p.product_name, SUM(s.total_amount)" + sp + " WHERE p.category = 'Electronics' AND s.sale_date LIKE '2025%' GROUP BY p.product_id"},
		{name: "category by month last 6 months", q: "sales of home & kitchen products by month last 6 months", ordered: true, want: "SELECT substr(s.sale_date,1,7) AS m, SUM(s.total_amount)" + sp + " WHERE p.category = 'Home & Kitchen' AND s.sale_date >= '2026-05-22' GROUP BY m ORDER BY m"},
		{name: "quarterly", q: "quarterly revenue in 2025", ordered: true, want: "SELECT '2025-Q' || ((CAST(substr(sale_date,6,2) AS INTEGER)+2)/3) AS q, SUM(total_amount) FROM sales WHERE sale_date LIKE '2025%' GROUP BY q ORDER BY q"},
		{name: "yearly", q: "yearly revenue", ordered: true, want: "SELECT substr(sale_date,1,4) AS y, SUM(total_amount) FROM sales GROUP BY y ORDER BY y"},
		{name: "region wise", q: "region wise sales", want: "SELECT region, SUM(total_amount) FROM sales GROUP BY region"},
		{name: "orders per customer", q: "number of orders per customer", want: "SELECT c.customer_id, c.customer_name, COUNT(*) FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.customer_id"},
		{name: "by region and category", q: "revenue by region and category", want: "SELECT s.region, p.category, SUM(s.total_amount)" + sp + " GROUP BY s.region, p.category"},
		{name: "weekly orders", q: "weekly orders in the last 30 days", ordered: true, want: "SELECT date(order_date, 'weekday 0', '-6 days') AS w, COUNT(*) FROM orders WHERE order_date >= '2026-10-23' GROUP BY w ORDER BY w"},

		// ranking
		{name: "top 5 products", q: "top 5 products by revenue", want: "SELECT p.product_id, p.product_name, SUM(s.total_amount) AS r" + sp + " GROUP BY p.product_id ORDER BY r DESC, p.product_id LIMIT 5"},
		{name: "top five words", q: "Top five products by revenue last year", want: "SELECT p.product_id, p.product_name, SUM(s.total_amount) AS r" + sp + " WHERE s.sale_date LIKE '2025-%' GROUP BY p.product_id ORDER BY r DESC, p.product_id LIMIT 5"},
		{name: "bottom 3 regions", q: "bottom 3 regions by revenue", want: "SELECT region, SUM(total_amount) AS r FROM sales GROUP BY region ORDER BY r ASC LIMIT 3"},
		{name: "bottom 3 regions default measure", q: "bottom 3 regions", want: "SELECT region, SUM(total_amount) AS r FROM sales GROUP BY region ORDER BY r ASC LIMIT 3"},
		{name: "best selling product", q: "best selling product", want: "SELECT p.product_id, p.product_name, SUM(s.quantity) AS u" + sp + " GROUP BY p.product_id ORDER BY u DESC LIMIT 1"},
		{name: "best selling this year", q: "what's the best-selling product this year?", want: "SELECT p.product_id, p.product_name, SUM(s.quantity) AS u" + sp + " WHERE s.sale_date >= '2026-01-01' GROUP BY p.product_id ORDER BY u DESC LIMIT 1"},
		{name: "which region highest", q: "Which region has the highest revenue?", want: "SELECT region, SUM(total_amount) AS r FROM sales GROUP BY region ORDER BY r DESC LIMIT 1"},
		{name: "region with lowest", q: "region with the lowest sales last month", want: "SELECT region, SUM(total_amount) AS r FROM sales WHERE sale_date LIKE '2026-10-%' GROUP BY region ORDER BY r ASC LIMIT 1"},
		{name: "top 3 categories units", q: "what are the top 3 categories by units sold this year", want: "SELECT p.category, SUM(s.quantity) AS u" + sp + " WHERE s.sale_date >= '2026-01-01' GROUP BY p.category ORDER BY u DESC LIMIT 3"},
		{name: "top 3 customers by key", q: "top 3 customers by revenue", want: "SELECT c.customer_id, c.customer_name, SUM(s.total_amount) AS r" + soc + " GROUP BY c.customer_id ORDER BY r DESC, c.customer_id LIMIT 3"},
		// orders have no name: each is shown by its own columns
		{name: "top 5 orders", q: "top 5 orders by revenue", want: "SELECT o.order_id, o.order_date, o.status, SUM(s.total_amount) AS r FROM orders o JOIN sales s ON s.order_id = o.order_id GROUP BY o.order_id ORDER BY r DESC, o.order_id LIMIT 5"},
		{name: "top products in category", q: "top 3 audio products by qty", want: "SELECT p.product_id, p.product_name, SUM(s.quantity) AS u" + sp + " WHERE p.category = 'Audio' GROUP BY p.product_id ORDER BY u DESC, p.product_id LIMIT 3"},
		{name: "customer with most orders", q: "which customer placed the most orders", want: "SELECT c.customer_id, c.customer_name, COUNT(*) AS n FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.customer_id ORDER BY n DESC, c.customer_id LIMIT 1"},
		{name: "most expensive product", q: "most expensive product", want: "SELECT * FROM products ORDER BY unit_price DESC, product_id LIMIT 1"},
		{name: "cheapest 3 products", q: "the 3 cheapest products", want: "SELECT * FROM products ORDER BY unit_price, product_id LIMIT 3"},
		{name: "month with the highest revenue", q: "which month had the highest revenue", want: "SELECT substr(sale_date, 1, 7) AS m, SUM(total_amount) AS r FROM sales GROUP BY m ORDER BY r DESC, m LIMIT 1"},
		{name: "best month", q: "best month for sales in 2025", want: "SELECT substr(sale_date, 1, 7) AS m, SUM(total_amount) AS r FROM sales WHERE sale_date LIKE '2025%' GROUP BY m ORDER BY r DESC, m LIMIT 1"},
		{name: "top customers by orders", q: "top 5 customers by orders", want: "SELECT c.customer_id, c.customer_name, COUNT(*) AS n FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.customer_id ORDER BY n DESC, c.customer_id LIMIT 5"},
		{name: "most popular product", q: "most popular product", want: "SELECT p.product_id, p.product_name, SUM(s.quantity) AS u" + sp + " GROUP BY p.product_id ORDER BY u DESC, p.product_id LIMIT 1"},
		{name: "top products by own price", q: "top 3 products by list price", want: "SELECT * FROM products ORDER BY unit_price DESC, product_id LIMIT 3"},

		// comparisons of values and of numbers
		{name: "compare two products", q: "compare abracadabra and supersonic sales last quarter", want: "SELECT p.product_id, p.product_name, SUM(s.total_amount)" + sp + " WHERE p.product_id IN (123, 789) AND s.sale_date BETWEEN '2026-07-01' AND '2026-09-30' GROUP BY p.product_id"},
		{name: "versus", q: "revenue for abracadabra vs supersonic", want: "SELECT p.product_id, p.product_name, SUM(s.total_amount)" + sp + " WHERE p.product_id IN (123, 789) GROUP BY p.product_id"},
		{name: "compare regions", q: "compare north and south revenue this year", want: "SELECT region, SUM(total_amount) FROM sales WHERE region IN ('North','South') AND sale_date >= '2026-01-01' GROUP BY region"},
		{name: "compare with typo", q: "compare supersonik with the drone", want: "SELECT p.product_id, p.product_name, SUM(s.total_amount)" + sp + " WHERE p.product_id IN (789, 459) GROUP BY p.product_id"},
		{name: "products priced over", q: "products with a list price over 500", want: "SELECT * FROM products WHERE unit_price > 500"},
		{name: "how many products under", q: "how many products cost less than 50", want: "SELECT COUNT(*) FROM products WHERE unit_price < 50"},
		{name: "customers with more than n orders", q: "customers with more than 20 orders", want: "SELECT c.customer_id, c.customer_name, COUNT(*) FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.customer_id HAVING COUNT(*) > 20"},
		{name: "count customers with more than n orders", q: "how many customers have more than 20 orders", want: "SELECT COUNT(*) FROM (SELECT customer_id FROM orders GROUP BY customer_id HAVING COUNT(*) > 20)"},
		{name: "regions with revenue over", q: "regions with revenue over 500000", want: "SELECT region, SUM(total_amount) FROM sales GROUP BY region HAVING SUM(total_amount) > 500000"},
		{name: "sales lines over amount", q: "how many sales with total amount over 2000", want: "SELECT COUNT(*) FROM sales WHERE total_amount > 2000"},
		{name: "products between prices", q: "products with a list price between 100 and 200", want: "SELECT * FROM products WHERE unit_price BETWEEN 100 AND 200"},

		// derived measures
		{name: "gross revenue", q: "gross revenue by region", want: "SELECT region, SUM(unit_price * quantity) FROM sales GROUP BY region"},
		{name: "average order value", q: "what is the average order value", want: "SELECT SUM(total_amount) * 1.0 / COUNT(DISTINCT order_id) FROM sales"},
		{name: "aov by region", q: "aov by region last year", want: "SELECT region, SUM(total_amount) * 1.0 / COUNT(DISTINCT order_id) FROM sales WHERE sale_date LIKE '2025%' GROUP BY region"},

		// listings
		{name: "10 most recent orders", q: "show the 10 most recent orders for quantum", want: "SELECT * FROM orders WHERE order_id IN (SELECT order_id FROM sales WHERE product_id = 101) ORDER BY order_date DESC, order_id DESC LIMIT 10"},
		{name: "list products in category", q: "list products in Electronics", want: "SELECT * FROM products WHERE category = 'Electronics'"},
		{name: "which products", q: "which products are in audio?", want: "SELECT * FROM products WHERE category = 'Audio'"},
		{name: "latest order", q: "show me the latest order", want: "SELECT * FROM orders ORDER BY order_date DESC, order_id DESC LIMIT 1"},
		{name: "earliest customers", q: "list the 5 earliest customers", want: "SELECT * FROM customers ORDER BY signup_date, customer_id LIMIT 5"},
		{name: "pending orders", q: "list pending orders", want: "SELECT * FROM orders WHERE status = 'pending'"},
		{name: "last 3 sales", q: "last 3 transactions", want: "SELECT * FROM sales ORDER BY sale_date DESC, sale_id DESC LIMIT 3"},
		{name: "list categories", q: "list categories", ordered: true, want: "SELECT DISTINCT category FROM products ORDER BY category"},
		{name: "what regions", q: "what regions are there", ordered: true, want: "SELECT DISTINCT region FROM sales ORDER BY region"},
		{name: "customers who bought", q: "list customers who bought the turntable", want: "SELECT * FROM customers WHERE customer_id IN (SELECT o.customer_id FROM orders o JOIN sales s ON s.order_id = o.order_id WHERE s.product_id = 793)"},
		{name: "customers in region list", q: "customers in the west", want: "SELECT * FROM customers WHERE region = 'West'"},
		{name: "customer names and emails", q: "list customer names and emails in the south", want: "SELECT customer_name, email FROM customers WHERE region = 'South'"},

		// counts through joins
		{name: "customers who bought count", q: "how many customers bought abracadabra", want: "SELECT COUNT(DISTINCT o.customer_id) FROM orders o JOIN sales s ON s.order_id = o.order_id WHERE s.product_id = 123"},
		{name: "distinct categories count", q: "how many categories", want: "SELECT COUNT(DISTINCT category) FROM products"},
		{name: "orders for category", q: "number of orders for gadgets in electronics", want: "SELECT COUNT(DISTINCT s.order_id)" + sp + " WHERE p.product_id = 456 AND p.category = 'Electronics'"},
		{name: "orders by product category", q: "number of orders by category", want: "SELECT p.category, COUNT(DISTINCT s.order_id)" + sp + " GROUP BY p.category"},
		{name: "customers who bought this year", q: "how many customers bought abracadabra this year", want: "SELECT COUNT(DISTINCT o.customer_id) FROM orders o JOIN sales s ON s.order_id = o.order_id WHERE s.product_id = 123 AND s.sale_date >= '2026-01-01'"},
	}
}

func TestGenerateSalesQuestions(t *testing.T) {
	e := salesEnv(t)
	g := New(nil)
	qs := salesQuestions()
	if len(qs) < 117 {
		t.Errorf("%d sales questions, want at least 117", len(qs))
	}
	e.runSet(t, g, qs)
}
