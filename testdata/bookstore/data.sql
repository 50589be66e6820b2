-- Deterministic data (no random()): dates are relative to the fixture's
-- as-of date, 2026-11-21 (the tests pin today to it), so "this month" and
-- "last 30 days" have rows whatever the clock says.
INSERT INTO books (book_id, title, genre, price) VALUES
    (1, 'Dune', 'Science Fiction', 12.5),
    (2, 'Foundation', 'Science Fiction', 10.0),
    (3, 'The Hobbit', 'Fantasy', 9.99),
    (4, 'A Wizard of Earthsea', 'Fantasy', 8.5),
    (5, 'Gone Girl', 'Mystery', 11.0),
    (6, 'The Big Sleep', 'Mystery', 7.25),
    (7, 'Pride and Prejudice', 'Romance', 6.5),
    (8, 'Cosmos', 'Nonfiction', 14.0);

WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 30)
INSERT INTO members (member_id, name, city, tier, joined_on)
SELECT x, 'Reader ' || x,
       CASE x % 4 WHEN 0 THEN 'Paris' WHEN 1 THEN 'Lyon' WHEN 2 THEN 'Nice' ELSE 'Lille' END,
       CASE x % 3 WHEN 0 THEN 'gold' WHEN 1 THEN 'silver' ELSE 'bronze' END,
       date('2026-11-21', '-' || (x * 23) || ' days')
FROM seq;

WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 400)
INSERT INTO purchases (purchase_id, member_id, purchased_on, channel)
SELECT x, ((x * 7) % 30) + 1,
       date('2026-11-21', '-' || ((x * 3) % 540) || ' days'),
       CASE x % 3 WHEN 0 THEN 'online' WHEN 1 THEN 'store' ELSE 'app' END
FROM seq;

WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 900)
INSERT INTO purchase_items (item_id, purchase_id, book_id, copies, amount, purchased_on, city)
SELECT x, p.purchase_id, b.book_id, (x % 4) + 1, round(((x % 4) + 1) * b.price, 2), p.purchased_on,
       CASE (x * 3) % 4 WHEN 0 THEN 'Paris' WHEN 1 THEN 'Lyon' WHEN 2 THEN 'Nice' ELSE 'Lille' END
FROM seq
JOIN purchases p ON p.purchase_id = ((x * 13) % 400) + 1
JOIN books b ON b.book_id = ((x * 5) % 8) + 1;
