-- Bookstore fixture for the builtin generator tests: a second domain with
-- different table and column names than the sample sales database.
CREATE TABLE books (
    book_id INTEGER PRIMARY KEY,
    title   TEXT NOT NULL UNIQUE,
    genre   TEXT NOT NULL,
    price   REAL NOT NULL
);
CREATE TABLE members (
    member_id INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    city      TEXT NOT NULL,
    tier      TEXT NOT NULL,
    joined_on TEXT NOT NULL
);
CREATE TABLE purchases (
    purchase_id  INTEGER PRIMARY KEY,
    member_id    INTEGER NOT NULL REFERENCES members(member_id),
    purchased_on TEXT NOT NULL,
    channel      TEXT NOT NULL
);
CREATE TABLE purchase_items (
    item_id      INTEGER PRIMARY KEY,
    purchase_id  INTEGER NOT NULL REFERENCES purchases(purchase_id),
    book_id      INTEGER NOT NULL REFERENCES books(book_id),
    copies       INTEGER NOT NULL,
    amount       REAL NOT NULL,
    purchased_on TEXT NOT NULL,
    city         TEXT NOT NULL
);
CREATE INDEX idx_purchase_items_purchased_on ON purchase_items(purchased_on);
