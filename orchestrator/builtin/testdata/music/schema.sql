-- A snake_case music shop: invoice lines reach the record label in four
-- many-to-one hops (invoice_line → track → album → artist → label),
-- invoices are dated in unix seconds, albums by release year, a view sits
-- beside the tables, and Germany is a value of four tables' countries.
CREATE TABLE label (
    label_id INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    country  TEXT NOT NULL
);
CREATE TABLE artist (
    artist_id INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    country   TEXT NOT NULL,
    label_id  INTEGER NOT NULL REFERENCES label(label_id)
);
CREATE TABLE album (
    album_id     INTEGER PRIMARY KEY,
    title        TEXT NOT NULL,
    artist_id    INTEGER NOT NULL REFERENCES artist(artist_id),
    release_year INTEGER NOT NULL
);
CREATE TABLE genre (
    genre_id INTEGER PRIMARY KEY,
    name     TEXT NOT NULL
);
CREATE TABLE track (
    track_id     INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    album_id     INTEGER NOT NULL REFERENCES album(album_id),
    genre_id     INTEGER NOT NULL REFERENCES genre(genre_id),
    milliseconds INTEGER NOT NULL,
    unit_price   NUMERIC NOT NULL
);
CREATE TABLE customer (
    customer_id INTEGER PRIMARY KEY,
    first_name  TEXT NOT NULL,
    last_name   TEXT NOT NULL,
    country     TEXT NOT NULL,
    email       TEXT NOT NULL
);
CREATE TABLE invoice (
    invoice_id      INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customer(customer_id),
    invoiced_at     INTEGER NOT NULL,
    billing_country TEXT NOT NULL,
    total           NUMERIC NOT NULL
);
CREATE TABLE invoice_line (
    invoice_line_id INTEGER PRIMARY KEY,
    invoice_id      INTEGER NOT NULL REFERENCES invoice(invoice_id),
    track_id        INTEGER NOT NULL REFERENCES track(track_id),
    unit_price      NUMERIC NOT NULL,
    quantity        INTEGER NOT NULL
);
CREATE VIEW artist_sales AS
SELECT ar.artist_id, ar.name, SUM(il.unit_price * il.quantity) AS revenue
FROM invoice_line il JOIN track t ON t.track_id = il.track_id
JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id
GROUP BY ar.artist_id, ar.name;
-- A view named like a question, with a filter and a grain of its own: the
-- base tables answer "sales by genre" over every year, one row per genre.
CREATE VIEW "sales by genre" AS
SELECT g.name AS genre, t.name AS track, SUM(il.unit_price * il.quantity) AS revenue
FROM invoice_line il JOIN track t ON t.track_id = il.track_id
JOIN genre g ON g.genre_id = t.genre_id JOIN invoice i ON i.invoice_id = il.invoice_id
WHERE i.invoiced_at >= 1735689600
GROUP BY g.name, t.name;
