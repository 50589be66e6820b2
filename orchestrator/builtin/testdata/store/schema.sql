-- A CamelCase store in the style of classic sample databases: bracketed
-- names with spaces, DATETIME text with a time part, NUMERIC money, text
-- keys, a self-reference, and the same country values in four tables.
CREATE TABLE Categories (
    CategoryID   INTEGER PRIMARY KEY,
    CategoryName TEXT NOT NULL,
    Description  TEXT
);
CREATE TABLE Suppliers (
    SupplierID  INTEGER PRIMARY KEY,
    CompanyName TEXT NOT NULL,
    Country     TEXT NOT NULL,
    City        TEXT NOT NULL
);
CREATE TABLE Products (
    ProductID    INTEGER PRIMARY KEY,
    ProductName  TEXT NOT NULL,
    SupplierID   INTEGER NOT NULL REFERENCES Suppliers(SupplierID),
    CategoryID   INTEGER NOT NULL REFERENCES Categories(CategoryID),
    UnitPrice    NUMERIC NOT NULL,
    UnitsInStock INTEGER NOT NULL,
    Discontinued INTEGER NOT NULL
);
CREATE TABLE Customers (
    CustomerID  TEXT PRIMARY KEY,
    CompanyName TEXT NOT NULL,
    ContactName TEXT NOT NULL,
    Country     TEXT NOT NULL,
    City        TEXT NOT NULL
);
CREATE TABLE Employees (
    EmployeeID INTEGER PRIMARY KEY,
    LastName   TEXT NOT NULL,
    FirstName  TEXT NOT NULL,
    Title      TEXT NOT NULL,
    Country    TEXT NOT NULL,
    BirthDate  DATETIME NOT NULL,
    HireDate   DATETIME NOT NULL,
    ReportsTo  INTEGER REFERENCES Employees(EmployeeID)
);
CREATE TABLE Shippers (
    ShipperID   INTEGER PRIMARY KEY,
    CompanyName TEXT NOT NULL,
    Phone       TEXT
);
CREATE TABLE Orders (
    OrderID     INTEGER PRIMARY KEY,
    CustomerID  TEXT NOT NULL REFERENCES Customers(CustomerID),
    EmployeeID  INTEGER NOT NULL REFERENCES Employees(EmployeeID),
    OrderDate   DATETIME NOT NULL,
    ShippedDate DATETIME,
    ShipVia     INTEGER NOT NULL REFERENCES Shippers(ShipperID),
    Freight     NUMERIC NOT NULL,
    ShipCountry TEXT NOT NULL
);
CREATE TABLE [Order Details] (
    OrderID   INTEGER NOT NULL REFERENCES Orders(OrderID),
    ProductID INTEGER NOT NULL REFERENCES Products(ProductID),
    UnitPrice NUMERIC NOT NULL,
    Quantity  INTEGER NOT NULL,
    Discount  REAL NOT NULL,
    PRIMARY KEY (OrderID, ProductID)
);
