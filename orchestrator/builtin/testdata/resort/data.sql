-- Deterministic data ending on 2026-11-21 (the tests' pinned today).
INSERT INTO RESORT VALUES
 (1, 'Azure Bay Resort', 'Nice', 'France', 5, '2015-06-01'), (2, 'Pine Ridge Lodge', 'Aspen', 'USA', 4, '2018-12-15'),
 (3, 'Harbor Light Inn', 'Lisbon', 'Portugal', 3, '2020-03-20'), (4, 'Alpine Crest', 'Zermatt', 'Switzerland', 5, '2012-11-30'),
 (5, 'Sunset Dunes', 'Agadir', 'Morocco', 4, '2021-04-10'), (6, 'Lakeside Haven', 'Como', 'Italy', 3, '2019-07-07');
INSERT INTO ROOM_TYPE VALUES (1, 'Standard', 2), (2, 'Deluxe', 3), (3, 'Suite', 4), (4, 'Family', 5);
WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 60)
INSERT INTO ROOM SELECT x, (x - 1) % 6 + 1, (x * 3) % 4 + 1, printf('%d%02d', (x % 5) + 1, x),
  CASE (x * 3) % 4 WHEN 0 THEN 140 WHEN 1 THEN 220 WHEN 2 THEN 380 ELSE 260 END + ((x - 1) % 6) * 15, (x % 5) + 1 FROM seq;
WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 80)
INSERT INTO GUEST SELECT x,
  CASE x % 8 WHEN 0 THEN 'Anna' WHEN 1 THEN 'Ben' WHEN 2 THEN 'Chloe' WHEN 3 THEN 'Diego' WHEN 4 THEN 'Elif' WHEN 5 THEN 'Farid' WHEN 6 THEN 'Greta' ELSE 'Hugo' END,
  CASE x % 7 WHEN 0 THEN 'Moreau' WHEN 1 THEN 'Silva' WHEN 2 THEN 'Keller' WHEN 3 THEN 'Novak' WHEN 4 THEN 'Rossi' WHEN 5 THEN 'Larsen' ELSE 'Okafor' END,
  CASE WHEN x % 9 = 0 THEN NULL ELSE 'guest' || x || '@example.com' END,
  CASE x % 6 WHEN 0 THEN 'France' WHEN 1 THEN 'USA' WHEN 2 THEN 'Germany' WHEN 3 THEN 'Italy' WHEN 4 THEN 'Portugal' ELSE 'Japan' END,
  CASE x % 4 WHEN 0 THEN 'gold' WHEN 1 THEN 'silver' WHEN 2 THEN 'bronze' ELSE 'platinum' END,
  CASE WHEN x % 10 = 0 THEN NULL ELSE date('1960-01-01', '+' || ((x * 211) % 15000) || ' days') END,
  datetime('2026-11-21 08:00:00', '-' || ((x * 13) % 900) || ' days') FROM seq;
WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 700)
INSERT INTO RESERVATION SELECT x, (x * 7) % 80 + 1, (x * 11) % 60 + 1,
  datetime('2026-11-21 10:00:00', '-' || ((x * 37) % 720 + 20) || ' days', '-' || ((x * 53) % 1400) || ' minutes'),
  date('2026-11-21', '-' || ((x * 37) % 720) || ' days'),
  date('2026-11-21', '-' || ((x * 37) % 720) || ' days', '+' || (x % 6 + 1) || ' days'),
  x % 6 + 1, 0,
  CASE WHEN x % 13 = 0 THEN 'cancelled' WHEN x % 17 = 0 THEN 'no_show' ELSE 'completed' END,
  CASE x % 3 WHEN 0 THEN 'direct' WHEN 1 THEN 'agency' ELSE 'web' END FROM seq;
UPDATE RESERVATION SET TOTAL_PRICE = NIGHTS * (SELECT NIGHTLY_RATE FROM ROOM WHERE ROOM.ROOM_ID = RESERVATION.ROOM_ID);
WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 3)
INSERT INTO CHARGE (RESERVATION_ID, CHARGE_TYPE, AMOUNT, CHARGED_AT)
SELECT r.RESERVATION_ID, CASE seq.x WHEN 1 THEN 'minibar' WHEN 2 THEN 'spa' ELSE 'restaurant' END,
  round(((r.RESERVATION_ID * 29 + seq.x * 17) % 200) + 15.5, 2), datetime(r.CHECK_IN, '+1 day', '+19 hours')
FROM RESERVATION r JOIN seq ON seq.x <= r.RESERVATION_ID % 3 + 1 WHERE r.STATUS = 'completed';
