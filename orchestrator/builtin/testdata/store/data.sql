-- Deterministic data ending on 2026-11-21 (the tests' pinned today).
INSERT INTO Categories VALUES
 (1, 'Beverages', 'Soft drinks, coffees, teas'), (2, 'Condiments', 'Sauces and spreads'),
 (3, 'Confections', 'Desserts and candies'), (4, 'Dairy Products', 'Cheeses'),
 (5, 'Seafood', 'Fish and shellfish'), (6, 'Produce', 'Dried fruit and bean curd');
INSERT INTO Suppliers VALUES
 (1, 'Nordic Provisions', 'Sweden', 'Stockholm'), (2, 'Berliner Feinkost', 'Germany', 'Berlin'),
 (3, 'Tokyo Traders', 'Japan', 'Tokyo'), (4, 'Pavlova Ltd', 'Australia', 'Melbourne'),
 (5, 'Bayerische Brauerei', 'Germany', 'Munich'), (6, 'Leka Trading', 'Singapore', 'Singapore');
INSERT INTO Products VALUES
 (1, 'Chai', 1, 1, 18.00, 39, 0), (2, 'Chang Ale', 5, 1, 19.00, 17, 0), (3, 'Aniseed Syrup', 4, 2, 10.00, 13, 0),
 (4, 'Cajun Seasoning', 4, 2, 22.00, 53, 1), (5, 'Gumbo Mix', 6, 2, 21.35, 0, 1), (6, 'Berry Spread', 2, 2, 25.00, 120, 0),
 (7, 'Dried Pears', 3, 6, 30.00, 15, 0), (8, 'Cranberry Sauce', 2, 2, 40.00, 6, 0), (9, 'Wagyu Beef', 3, 6, 97.00, 29, 1),
 (10, 'Ikura Roe', 3, 5, 31.00, 31, 0), (11, 'Blue Cheese', 2, 4, 21.00, 22, 0), (12, 'Manchego', 4, 4, 38.00, 86, 0),
 (13, 'Kombu Kelp', 3, 5, 6.00, 24, 0), (14, 'Tofu Block', 6, 6, 23.25, 35, 0), (15, 'Genen Shouyu', 3, 2, 15.50, 39, 0),
 (16, 'Pavlova Cake', 4, 3, 17.45, 29, 0), (17, 'Alice Mutton', 4, 6, 39.00, 0, 1), (18, 'Tiger Prawns', 4, 5, 62.50, 42, 0),
 (19, 'Teatime Biscuits', 1, 3, 9.20, 25, 0), (20, 'Marmalade', 1, 3, 81.00, 40, 0), (21, 'Scones', 1, 3, 10.00, 3, 0),
 (22, 'Dark Lager', 5, 1, 14.00, 52, 0), (23, 'Rhubarb Soda', 5, 1, 4.50, 20, 0), (24, 'Espresso Roast', 2, 1, 46.00, 17, 0);
INSERT INTO Customers VALUES
 ('ALFKI', 'Alfreds Futterkiste', 'Maria Anders', 'Germany', 'Berlin'),
 ('ANATR', 'Ana Trujillo Emparedados', 'Ana Trujillo', 'Mexico', 'Mexico City'),
 ('BERGS', 'Berglunds Snabbkop', 'Christina Berglund', 'Sweden', 'Lulea'),
 ('BLAUS', 'Blauer See Delikatessen', 'Hanna Moos', 'Germany', 'Mannheim'),
 ('BONAP', 'Bon App', 'Laurence Lebihan', 'France', 'Marseille'),
 ('BOTTM', 'Bottom-Dollar Markets', 'Elizabeth Lincoln', 'Canada', 'Tsawassen'),
 ('CHOPS', 'Chop-suey Chinese', 'Yang Wang', 'Switzerland', 'Bern'),
 ('DRACD', 'Drachenblut Delikatessen', 'Sven Ottlieb', 'Germany', 'Aachen'),
 ('FOLKO', 'Folk och fa HB', 'Maria Larsson', 'Sweden', 'Brakke'),
 ('FRANK', 'Frankenversand', 'Peter Franken', 'Germany', 'Munich'),
 ('GREAL', 'Great Lakes Food Market', 'Howard Snyder', 'USA', 'Eugene'),
 ('HUNGC', 'Hungry Coyote Import Store', 'Yoshi Latimer', 'USA', 'Elgin'),
 ('LACOR', 'La corne d abondance', 'Daniel Tonini', 'France', 'Versailles'),
 ('MAGAA', 'Magazzini Alimentari Riuniti', 'Giovanni Rovelli', 'Italy', 'Bergamo'),
 ('OCEAN', 'Oceano Atlantico Ltda', 'Yvonne Moncada', 'Argentina', 'Buenos Aires'),
 ('QUICK', 'QUICK-Stop', 'Horst Kloss', 'Germany', 'Cunewalde'),
 ('RATTC', 'Rattlesnake Canyon Grocery', 'Paula Wilson', 'USA', 'Albuquerque'),
 ('SEVES', 'Seven Seas Imports', 'Hari Kumar', 'UK', 'London'),
 ('TORTU', 'Tortuga Restaurante', 'Miguel Angel Paolino', 'Mexico', 'Mexico City'),
 ('WOLZA', 'Wolski Zajazd', 'Zbyszek Piestrzeniewicz', 'Poland', 'Warszawa');
INSERT INTO Employees VALUES
 (1, 'Davolio', 'Nancy', 'Sales Representative', 'USA', '1978-12-08 00:00:00', '2021-05-01 00:00:00', 2),
 (2, 'Fuller', 'Andrew', 'Vice President', 'USA', '1972-02-19 00:00:00', '2020-08-14 00:00:00', NULL),
 (3, 'Leverling', 'Janet', 'Sales Representative', 'USA', '1983-08-30 00:00:00', '2022-04-01 00:00:00', 2),
 (4, 'Peacock', 'Margaret', 'Sales Representative', 'UK', '1967-09-19 00:00:00', '2023-05-03 00:00:00', 2),
 (5, 'Buchanan', 'Steven', 'Sales Manager', 'Germany', '1975-03-04 00:00:00', '2023-10-17 00:00:00', 2),
 (6, 'Suyama', 'Michael', 'Sales Representative', 'UK', '1983-07-02 00:00:00', '2024-10-17 00:00:00', 5);
INSERT INTO Shippers VALUES (1, 'Speedy Express', '(503) 555-9831'), (2, 'United Package', '(503) 555-3199'), (3, 'Federal Shipping', '(503) 555-9931');

WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 600)
INSERT INTO Orders (OrderID, CustomerID, EmployeeID, OrderDate, ShippedDate, ShipVia, Freight, ShipCountry)
SELECT 10000 + x,
       c.CustomerID,
       (x * 5) % 6 + 1,
       datetime('2026-11-21 17:30:00', '-' || ((x * 37) % 700) || ' days', '-' || ((x * 7) % 600) || ' minutes'),
       CASE WHEN x % 9 = 0 THEN NULL ELSE datetime('2026-11-21 09:00:00', '-' || ((x * 37) % 700 - 3) || ' days') END,
       x % 3 + 1,
       round(((x * 53) % 1000) / 7.0, 2),
       CASE WHEN x % 17 = 0 THEN 'Germany' ELSE c.Country END
FROM seq JOIN (SELECT CustomerID, Country, row_number() OVER (ORDER BY CustomerID) - 1 AS n FROM Customers) c
  ON c.n = ((x * 7 + x / 13) % 20);

WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 3)
INSERT INTO [Order Details] (OrderID, ProductID, UnitPrice, Quantity, Discount)
SELECT o.OrderID, p.ProductID,
       CASE WHEN o.OrderDate < '2025-06-01' THEN round(p.UnitPrice * 0.9, 2) ELSE p.UnitPrice END,
       (o.OrderID * 7 + seq.x * 3) % 40 + 1,
       CASE (o.OrderID + seq.x) % 5 WHEN 0 THEN 0.15 WHEN 1 THEN 0.05 ELSE 0 END
FROM Orders o JOIN seq ON seq.x <= (o.OrderID % 3) + 1
JOIN Products p ON p.ProductID = ((o.OrderID * 11 + seq.x * 7) % 24) + 1;
