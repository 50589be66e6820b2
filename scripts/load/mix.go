package main

import (
	"strconv"
	"strings"
)

// workItem is one analyst query of the mix: the question a person asks and
// the SQL that answers it on the sample data.
type workItem struct {
	name     string
	question string
	// sql is the statement; {key}, when present, takes a point-lookup key
	// so consecutive lookups hit different rows.
	sql string
}

// mix is the realistic analyst workload: a grouped aggregate over a 3-table
// join (the query of issue 13), a top-N with 2 joins, a monthly trend and a
// point lookup. Every client runs it in a loop, each starting at its own
// item, so all four always run side by side.
var mix = []workItem{
	{name: "region", question: "revenue and number of sales by customer region",
		sql: `SELECT c.region, ROUND(SUM(s.total_amount), 2) AS revenue, COUNT(*) AS sales
FROM sales s JOIN orders o ON o.order_id = s.order_id JOIN customers c ON c.customer_id = o.customer_id
GROUP BY c.region ORDER BY revenue DESC`},
	{name: "top10", question: "top 10 products by revenue from completed orders",
		sql: `SELECT p.product_name, ROUND(SUM(s.total_amount), 2) AS revenue
FROM sales s JOIN products p ON p.product_id = s.product_id JOIN orders o ON o.order_id = s.order_id
WHERE o.status = 'completed'
GROUP BY p.product_name ORDER BY revenue DESC LIMIT 10`},
	{name: "trend", question: "monthly revenue trend",
		sql: `SELECT strftime('%Y-%m', sale_date) AS month, ROUND(SUM(total_amount), 2) AS revenue, COUNT(*) AS sales
FROM sales GROUP BY month ORDER BY month`},
	{name: "lookup", question: "show order 4242 with its customer",
		sql: `SELECT o.order_id, o.order_date, o.status, c.customer_name, c.region
FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE o.order_id = {key}`},
}

// pointKeys is how many distinct keys the point lookup cycles through.
const pointKeys = 20000

// sqlFor returns the SQL of item i for the n-th query of a client: the
// point lookup walks through keys with a stride, the others are fixed.
func sqlFor(i, n int) string {
	return strings.ReplaceAll(mix[i].sql, "{key}", strconv.Itoa(1+(n*7919)%pointKeys))
}
