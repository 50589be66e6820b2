-- Deterministic data; invoices end on 2026-11-21 (the tests' pinned today).
INSERT INTO label VALUES (1, 'Harbor Records', 'Germany'), (2, 'Sunset Sound', 'USA'), (3, 'Northern Lights', 'Norway');
INSERT INTO artist VALUES
 (1, 'The Static Waves', 'Germany', 1), (2, 'Velvet Engine', 'UK', 2), (3, 'Mira Solen', 'Norway', 3),
 (4, 'Copper Coast', 'USA', 2), (5, 'Kraftwerk Kids', 'Germany', 1), (6, 'Luna Parade', 'France', 3),
 (7, 'Dust and Diesel', 'USA', 2), (8, 'Ola Fjord', 'Norway', 3);
INSERT INTO genre VALUES (1, 'Rock'), (2, 'Jazz'), (3, 'Electronic'), (4, 'Pop'), (5, 'Folk');
WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 20)
INSERT INTO album SELECT x, 'Album ' || x, (x * 3) % 8 + 1, 2018 + (x * 5) % 9 FROM seq;
WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 160)
INSERT INTO track SELECT x, 'Track ' || x, (x * 7) % 20 + 1, (x * 3) % 5 + 1,
  150000 + (x * 7919) % 240000, CASE WHEN x % 4 = 0 THEN 1.29 ELSE 0.99 END FROM seq;
INSERT INTO customer VALUES
 (1, 'Leonie', 'Kohler', 'Germany', 'leonie@example.de'), (2, 'Francois', 'Tremblay', 'Canada', 'ftremblay@example.ca'),
 (3, 'Bjorn', 'Hansen', 'Norway', 'bjorn@example.no'), (4, 'Frank', 'Harris', 'USA', 'fharris@example.com'),
 (5, 'Hannah', 'Schneider', 'Germany', 'hannah@example.de'), (6, 'Luis', 'Rojas', 'Chile', 'luis@example.cl'),
 (7, 'Emma', 'Jones', 'UK', 'emma@example.co.uk'), (8, 'Niklas', 'Schroder', 'Germany', 'niklas@example.de'),
 (9, 'Camille', 'Bernard', 'France', 'camille@example.fr'), (10, 'Jack', 'Smith', 'USA', 'jack@example.com');
WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 300)
INSERT INTO invoice SELECT x, (x * 7) % 10 + 1,
  CAST(strftime('%s', '2026-11-21 20:00:00') AS INTEGER) - ((x * 211) % 700) * 86400 - (x * 97) % 80000,
  '', 0 FROM seq;
UPDATE invoice SET billing_country = CASE WHEN invoice_id % 11 = 0 THEN 'Germany'
  ELSE (SELECT country FROM customer c WHERE c.customer_id = invoice.customer_id) END;
WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 4)
INSERT INTO invoice_line (invoice_id, track_id, unit_price, quantity)
SELECT i.invoice_id, (i.invoice_id * 13 + seq.x * 29) % 160 + 1, t.unit_price, (i.invoice_id + seq.x) % 3 + 1
FROM invoice i JOIN seq ON seq.x <= i.invoice_id % 4 + 1
JOIN track t ON t.track_id = (i.invoice_id * 13 + seq.x * 29) % 160 + 1;
UPDATE invoice SET total = (SELECT round(SUM(unit_price * quantity), 2) FROM invoice_line l WHERE l.invoice_id = invoice.invoice_id);
