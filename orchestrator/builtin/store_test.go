package builtin

import (
	"path/filepath"
	"testing"
)

// storeEnv is a CamelCase store written by the tests (testdata/store):
// [Order Details] with a composite key, DATETIME text with a time part,
// NUMERIC money, text customer keys, a self-referencing employee table,
// and Germany in four tables' country columns. Its catalog is written the
// way the drafter writes one: identifier words, kinds, a few synonyms.
func storeEnv(tb testing.TB) *env {
	tb.Helper()
	dir := filepath.Join("testdata", "store")
	path := storeDB(tb)
	return newEnv(tb, path, filepath.Join(dir, "catalog.json"))
}

const (
	odo = ` FROM "Order Details" d JOIN Orders o ON o.OrderID = d.OrderID`
	odp = ` FROM "Order Details" d JOIN Products p ON p.ProductID = d.ProductID`
	amt = `d.UnitPrice * d.Quantity * (1 - d.Discount)`
)

func storeQuestions() []question {
	return []question{
		{name: "count orders", q: "how many orders", want: "SELECT COUNT(*) FROM Orders"},
		{name: "customers in a country", q: "number of customers in Germany", want: "SELECT COUNT(*) FROM Customers WHERE Country = 'Germany'"},
		{name: "orders of a named customer", q: "how many orders did Alfreds Futterkiste place", want: "SELECT COUNT(*) FROM Orders WHERE CustomerID = 'ALFKI'"},
		{name: "derived measure by category, two hops", q: "sales by category", want: "SELECT c.CategoryID, c.CategoryName, SUM(" + amt + ")" + odp + " JOIN Categories c ON c.CategoryID = p.CategoryID GROUP BY c.CategoryID"},
		{name: "top customers by key", q: "top 5 customers by sales", want: "SELECT c.CustomerID, c.CompanyName, SUM(" + amt + ") AS s" + odo + " JOIN Customers c ON c.CustomerID = o.CustomerID GROUP BY c.CustomerID ORDER BY s DESC, c.CustomerID LIMIT 5"},
		{name: "datetime text in a year", q: "number of orders in 2025", want: "SELECT COUNT(*) FROM Orders WHERE OrderDate >= '2025-01-01' AND OrderDate < '2026-01-01'"},
		{name: "datetime text by month", q: "orders by month this year", ordered: true, want: "SELECT substr(OrderDate, 1, 7) AS m, COUNT(*) FROM Orders WHERE OrderDate >= '2026-01-01' GROUP BY m ORDER BY m"},
		{name: "entity with two label columns", q: "sales by employee", want: "SELECT e.EmployeeID, e.FirstName || ' ' || e.LastName, SUM(" + amt + ")" + odo + " JOIN Employees e ON e.EmployeeID = o.EmployeeID GROUP BY e.EmployeeID"},
		{name: "average of the named table's price", q: "average unit price of products", want: "SELECT AVG(UnitPrice) FROM Products"},
		{name: "most expensive", q: "most expensive product", want: "SELECT * FROM Products ORDER BY UnitPrice DESC, ProductID LIMIT 1"},
		{name: "products in a category", q: "products in Beverages", want: "SELECT * FROM Products WHERE CategoryID = 1"},
		{name: "count per supplier", q: "number of products per supplier", want: "SELECT s.SupplierID, s.CompanyName, COUNT(*) FROM Products p JOIN Suppliers s ON s.SupplierID = p.SupplierID GROUP BY s.SupplierID"},
		{name: "own country column", q: "suppliers in Germany", want: "SELECT * FROM Suppliers WHERE Country = 'Germany'"},
		{name: "named table's country", q: "how many orders from customers in Germany", want: "SELECT COUNT(*) FROM Orders o JOIN Customers c ON c.CustomerID = o.CustomerID WHERE c.Country = 'Germany'"},
		{name: "sum by shipper through ShipVia", q: "total freight by shipper", want: "SELECT s.ShipperID, s.CompanyName, SUM(o.Freight) FROM Orders o JOIN Shippers s ON s.ShipperID = o.ShipVia GROUP BY s.ShipperID"},
		{name: "event date filled", q: "how many orders were shipped", want: "SELECT COUNT(*) FROM Orders WHERE ShippedDate IS NOT NULL"},
		{name: "event date empty", q: "orders not shipped", want: "SELECT * FROM Orders WHERE ShippedDate IS NULL"},
		{name: "flag filter", q: "how many discontinued products", want: "SELECT COUNT(*) FROM Products WHERE Discontinued = 1"},
		{name: "negated flag", q: "how many products are not discontinued", want: "SELECT COUNT(*) FROM Products WHERE Discontinued = 0"},
		{name: "oldest by birth date", q: "oldest employee", want: "SELECT *, FirstName || ' ' || LastName FROM Employees ORDER BY BirthDate, EmployeeID LIMIT 1"},
		{name: "table-prefixed column", q: "sales by customer country", want: "SELECT c.Country, SUM(" + amt + ")" + odo + " JOIN Customers c ON c.CustomerID = o.CustomerID GROUP BY c.Country"},
		{name: "most rows", q: "which category has the most products", want: "SELECT c.CategoryID, c.CategoryName, COUNT(*) AS n FROM Products p JOIN Categories c ON c.CategoryID = p.CategoryID GROUP BY c.CategoryID ORDER BY n DESC, c.CategoryID LIMIT 1"},
		{name: "formula measure grouped", q: "average order value by category", want: "SELECT c.CategoryID, c.CategoryName, SUM(" + amt + ") * 1.0 / COUNT(DISTINCT d.OrderID)" + odp + " JOIN Categories c ON c.CategoryID = p.CategoryID GROUP BY c.CategoryID"},
		{name: "having count", q: "customers with more than 30 orders", want: "SELECT c.CustomerID, c.CompanyName, COUNT(*) FROM Orders o JOIN Customers c ON c.CustomerID = o.CustomerID GROUP BY c.CustomerID HAVING COUNT(*) > 30"},
		{name: "date from the parent table", q: "total quantity sold last month", want: "SELECT SUM(d.Quantity)" + odo + " WHERE o.OrderDate >= '2026-10-01' AND o.OrderDate < '2026-11-01'"},
		{name: "quarter literal", q: "sales in Q1 2026", want: "SELECT SUM(" + amt + ")" + odo + " WHERE o.OrderDate >= '2026-01-01' AND o.OrderDate < '2026-04-01'"},
		{name: "top products by quantity", q: "top 3 products by quantity sold", want: "SELECT p.ProductID, p.ProductName, SUM(d.Quantity) AS q" + odp + " GROUP BY p.ProductID ORDER BY q DESC, p.ProductID LIMIT 3"},
		{name: "average rate", q: "average discount", want: `SELECT AVG(Discount) FROM "Order Details"`},
		{name: "named product", q: "sales for Chai", want: "SELECT SUM(" + amt + `) FROM "Order Details" d WHERE d.ProductID = 1`},
		{name: "named employee with two-part name", q: "how many orders for Nancy Davolio", want: "SELECT COUNT(*) FROM Orders WHERE EmployeeID = 1"},
		{name: "named shipper", q: "total freight for Speedy Express", want: "SELECT SUM(Freight) FROM Orders WHERE ShipVia = 1"},
		{name: "named table filter in a listing", q: "list products from suppliers in Japan", want: "SELECT p.* FROM Products p JOIN Suppliers s ON s.SupplierID = p.SupplierID WHERE s.Country = 'Japan'"},
		{name: "count a dimension", q: "how many employees", want: "SELECT COUNT(*) FROM Employees"},
		{name: "group by attribute", q: "employees by title", want: "SELECT Title, COUNT(*) FROM Employees GROUP BY Title"},
		{name: "three hops", q: "sales by supplier country", want: "SELECT s.Country, SUM(" + amt + ")" + odp + " JOIN Suppliers s ON s.SupplierID = p.SupplierID GROUP BY s.Country"},
		{name: "synonym", q: "clients in France", want: "SELECT * FROM Customers WHERE Country = 'France'"},
		{name: "orders per customer in a year", q: "number of orders per customer in 2026", want: "SELECT c.CustomerID, c.CompanyName, COUNT(*) FROM Orders o JOIN Customers c ON c.CustomerID = o.CustomerID WHERE o.OrderDate >= '2026-01-01' GROUP BY c.CustomerID"},
		{name: "row comparison", q: "how many orders with freight over 100", want: "SELECT COUNT(*) FROM Orders WHERE Freight > 100"},
		{name: "own price comparison", q: "products with a unit price over 40", want: "SELECT * FROM Products WHERE UnitPrice > 40"},
		{name: "category entity this year", q: "sales for Beverages this year", want: "SELECT SUM(" + amt + ")" + odp + " JOIN Orders o ON o.OrderID = d.OrderID WHERE p.CategoryID = 1 AND o.OrderDate >= '2026-01-01'"},
		{name: "trend", q: "monthly sales trend", ordered: true, want: "SELECT substr(o.OrderDate, 1, 7) AS m, SUM(" + amt + ")" + odo + " GROUP BY m ORDER BY m"},
		{name: "lookup", q: "what is the unit price of Chai", want: "SELECT UnitPrice FROM Products WHERE ProductID = 1"},
		{name: "count order lines", q: "how many order lines", want: `SELECT COUNT(*) FROM "Order Details"`},
		{name: "shipped verb with a time", q: "how many orders shipped in 2026", want: "SELECT COUNT(*) FROM Orders WHERE ShippedDate >= '2026-01-01' AND ShippedDate < '2027-01-01'"},
		{name: "stock said with a number", q: "products with stock equal to 0", want: "SELECT * FROM Products WHERE UnitsInStock = 0"},
		{name: "units in stock is a column", q: "total units in stock", want: "SELECT SUM(UnitsInStock) FROM Products"},
		{name: "cheapest in a category", q: "cheapest product in Seafood", want: "SELECT * FROM Products WHERE CategoryID = 5 ORDER BY UnitPrice, ProductID LIMIT 1"},
	}
}

func TestGenerateStore(t *testing.T) {
	e := storeEnv(t)
	qs := storeQuestions()
	if len(qs) < 30 {
		t.Fatalf("%d store questions, want at least 30", len(qs))
	}
	e.runSet(t, New(nil), qs)
}

func TestStoreDeclines(t *testing.T) {
	e := storeEnv(t)
	g := New(nil)
	for _, q := range []string{
		"total quantity by country",                  // four tables have a country
		"orders to Germany",                          // Germany is in three tables, none named
		"average unit price",                         // Products or Order Details?
		"total unit price",                           // a price is not added up
		"how many orders did Alfreds place",          // a partial name
		"sales by discount",                          // grouping by a measure
		"average sales per customer",                 // per-entity average
		"sales next quarter",                         // the future
		"how many employees report to Andrew Fuller", // a table joined to itself
		// a stock level's state with no number: not the column's total
		// (these were SUM(UnitsInStock) or UnitsInStock IS NULL)
		"products in stock",
		"how many products are out of stock",
		"products with no stock",
		"products with zero stock",
		// the top row within each group (these were one row overall)
		"most expensive product per category",
		"latest order for each customer",
		"cheapest product in each category",
		// whether something happened, with no time and no verb of being:
		// this listed every order, shipped or not
		"orders shipped",
	} {
		t.Run(q, func(t *testing.T) { e.declines(t, g, q) })
	}
}

// storeDB builds the store database in a temporary directory.
func storeDB(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join("testdata", "store")
	return sqliteFile(tb, "store.db", readFile(tb, filepath.Join(dir, "schema.sql")), readFile(tb, filepath.Join(dir, "data.sql")))
}
