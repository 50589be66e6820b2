package evaluation

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"talk2tables/internal/fixtures"
)

// floor is the lowest correct rate (answerable questions answered right)
// a fixture run may have. The targets are 85% on the sample database
// and 60% on each fixture with only the drafted catalog; the floors start at
// just under what the offline planner achieves (measured figures beside
// each), so a regression fails. Wrong answers are never allowed, whatever the
// floor.
type floor struct {
	untouched, edited float64
}

// The benchmark-style floors were raised on 2026-11-27 to just under that
// day's figures (docs/fresh-fixtures.md); the comments give first contact.
var floors = map[string]floor{
	fixtures.Sample:   {untouched: 0.95},               // measured 100% (47/47)
	fixtures.BikeShop: {untouched: 0.90, edited: 0.90}, // 94% / 94%
	fixtures.Parcels:  {untouched: 0.80, edited: 0.80}, // 82% / 83%
	// Fresh benchmark-style questions (branch valid): unseen until their
	// wrong answers were turned into declines or answers on 2026-11-26.
	fixtures.Rescue: {untouched: 0.41}, // 72/174 (2026-11-26)
	fixtures.Hangar: {untouched: 0.33}, // 53/158 (2026-11-26)
	// Fresh benchmark-style questions (branch fresh), written without
	// reading the planner; their wrong answers are in knownWrong.
	fixtures.Clinic: {untouched: 0.74}, // 162/224 (first asked: 125, 13 wrong)
	fixtures.Campus: {untouched: 0.71}, // 135/195 (first asked: 118, 13 wrong)
	// Fresh benchmark-style questions (branch fresh2), written without
	// reading the planner; first asked at main 6714274 (2026-11-26).
	fixtures.Marina: {untouched: 0.73}, // 149/243 (first asked at 6714274: 137, 9 wrong; 2 were the gold's fault)
	// Fresh benchmark-style questions (branch fresh3), written without
	// reading the planner; first asked at main c231ad8 (2026-11-26).
	fixtures.Apiary: {untouched: 0.50}, // 140/303 (first asked: 125, 4 wrong, none the gold's fault)
	// Fresh benchmark-style questions (branch fresh4), written without
	// reading the planner; first asked at main c231ad8.
	fixtures.Waterworks:      {untouched: 0.37}, // 88/274 (first asked: 65, 4 wrong, none the gold's fault)
	fixtures.Foodbank:        {untouched: 0.43}, // branch fresh5, written without reading the planner: 81/313 (first asked at 834c6f1: 77, 4 wrong, 3 the gold's fault)
	fixtures.Dig:             {untouched: 0.46}, // 111/285 (branch fresh6, written without reading the planner, first asked at main 834c6f1: 6 wrong, none the gold's fault)
	fixtures.SkiResort:       {untouched: 0.57}, // 140/260 (branch fresh8, written without reading the planner, first asked at main d2588d8: 8 wrong, none the gold's fault)
	fixtures.Climbing:        {untouched: 0.59}, // 175/317 on 2026-11-27 (later); 146/317 (branch fresh7, written without reading the planner; first asked at d2588d8: 135, 11 wrong; at 0e41a02 to 0c3138a: 7 wrong, none the gold's fault)
	fixtures.Elections:       {untouched: 0.45}, // 154/344 (branch fresh9, written without reading the planner, first asked at main 7751d35: 1 wrong, not the gold's fault)
	fixtures.Theatre:         {untouched: 0.56}, // 164/350 (branch fresh10, written without reading the planner; first asked at main 7751d35: 2 wrong, none the gold's fault)
	fixtures.Pharmacy:        {untouched: 0.59}, // 176/321 (branch fresh11, written without reading the planner; first asked at main f9b4e35: 2 wrong, none the gold's fault)
	fixtures.BusDepot:        {untouched: 0.47}, // 164/367 (branch fresh12, written without reading the planner; first asked at main f9b4e35: 4 wrong, none the gold's fault)
	fixtures.RecordLabel:     {untouched: 0.47}, // 151/332 (branch fresh14, written without reading the planner; first asked at main 4c238f8: 9 wrong, none the gold's fault)
	fixtures.School:          {untouched: 0.55}, // 164/355 (branch fresh13, written without reading the planner; first asked at main 04f83c6: 16 wrong + 1 must-decline answered, none the gold's fault)
	fixtures.Festival:        {untouched: 0.32}, // 109/356 on 2026-11-27 (later); 72/356 (branch fresh16, written without reading the planner; first asked at main 4159b8a: 5 wrong, none the gold's fault)
	fixtures.Observatory:     {untouched: 0.53}, // 164/322 on 2026-11-27 (later); 121/322 (branch fresh15, written without reading the planner; first asked at main 4159b8a: 15 wrong, none the gold's fault, one arguable)
	fixtures.MotCentre:       {untouched: 0.38}, // 129/333 on 2026-11-27 (later); 91/333 (branch fresh17, written without reading the planner; first asked at main 05029af: 14 wrong, none the gold's fault)
	fixtures.Wildlife:        {untouched: 0.44}, // 142/339 on 2026-11-27 (later); 127/339 (branch fresh18, written without reading the planner; first asked at main 05029af: 2 wrong, none the gold's fault)
	fixtures.Leisure:         {untouched: 0.48}, // 150/323 at a23fae4; 147/323 (branch fresh20, written without reading the planner; first asked at main bf76682: 1 wrong, not the gold's fault, and 1 HTTP 500)
	fixtures.Vineyard:        {untouched: 0.29}, // 106/358 rebased on main 247b3f9; 103/358 (branch fresh19, written without reading the planner; first asked at main 19f2d20: 1 wrong, not the gold's fault)
	fixtures.Recycling:       {untouched: 0.37}, // 130/343 at a23fae4; 124/343 (branch fresh22, written without reading the planner; first asked at main 867ac3d: 6 wrong, none the gold's fault)
	fixtures.Library:         {untouched: 0.48}, // 160/328 at a23fae4; 155/328 rebased on main dbb98f0; 153/328 (branch fresh21, written without reading the planner; first asked at main 4570b93: 4 wrong, none the gold's fault, and 1 HTTP 504)
	fixtures.Weather:         {untouched: 0.25}, // 104/406 (branch fresh24, written without reading the planner; first asked at main 703114a: 5 wrong, none the gold's fault)
	fixtures.Cinema:          {untouched: 0.43}, // 167/383 since "ticket revenue" (two figures side by side) declines, 170 before; 168/383 (branch fresh23, written without reading the planner; first asked at main 703114a, the same at 317a633 and 69e35bf: 11 wrong, none the gold's fault, two arguable)
	fixtures.Tutoring:        {untouched: 0.28}, // 79/303 (branch fresh25, written without reading the planner; first asked at main ad8bea0: 3 wrong, none the gold's fault, and 1 HTTP 500)
	fixtures.Museum:          {untouched: 0.37}, // 128/360 (branch fresh26, written without reading the planner; first asked at main ad8bea0: 10 wrong, none the gold's fault, one arguable)
	fixtures.Wholesale:       {untouched: 0.00}, // 0/327 (branch fresh27, written without reading the planner; first asked at main 1921369: 325 declined, 2 wrong, none the gold's fault)
	fixtures.Icecream:        {untouched: 0.42}, // 107/252 (branch fresh102, written without reading the planner; first asked at main 40dd521: 5 wrong, none the gold's fault, one arguable)
	fixtures.Makerspace:      {untouched: 0.37}, // 111/313 rebased on main 60a7a92; 109/313 (branch fresh28, written without reading the planner; first asked at main fb59d13: 12 wrong, none the gold's fault, one arguable)
	fixtures.Kennel:          {untouched: 0.46}, // 129/369 (branch fresh29, written without reading the planner; first asked at main b4e3543: 27 wrong, none the gold's fault, five arguable)
	fixtures.Couriers:        {untouched: 0.44}, // 177/402 (branch fresh30, written without reading the planner; first asked at main b4e3543: 7 wrong, none the gold's fault, one arguable)
	fixtures.ChessClub:       {untouched: 0.29}, // 108/389 (branch fresh31, written without reading the planner; first asked at main 1619fc0: 107, 8 wrong, one the gold's fault (fixed), one arguable)
	fixtures.Livestock:       {untouched: 0.36}, // 127/344 (branch fresh32, written without reading the planner; first asked at main 1619fc0: 126, 6 wrong + 1 must-decline answered, one the gold's fault (fixed), one arguable)
	fixtures.Podcasts:        {untouched: 0.40}, // 149/371 (branch fresh33, written without reading the planner; first asked at main 9f6fde2: 21 wrong, none the gold's fault, nine arguable (download rows read as single downloads))
	fixtures.Trams:           {untouched: 0.49}, // 181/386 (branch fresh34, written without reading the planner; first asked at main 9f6fde2: 7 wrong, none the gold's fault, two arguable)
	fixtures.EscapeRooms:     {untouched: 0.40}, // 153/399 (branch fresh35, written without reading the planner; first asked at main 68efad9: 152, 10 wrong, one the gold's fault (fixed))
	fixtures.FireBrigade:     {untouched: 0.27}, // 95/348 (branch fresh36, written without reading the planner; first asked at main 68efad9: 4 wrong, none the gold's fault)
	fixtures.Bakery:          {untouched: 0.38}, // 126/326 (branch fresh38, written without reading the planner; first asked at main 3b51901: 7 wrong, none the gold's fault, three arguable)
	fixtures.Almanac:         {untouched: 0.44}, // 145/340 (branch fresh37, written without reading the planner; first asked at main 3b51901: 9 wrong, none the gold's fault, one arguable)
	fixtures.CoastFerry:      {untouched: 0.48}, // 158/336 (branch fresh39, written without reading the planner; first asked at main cce38a0: 157, 11 wrong, one the gold's fault (fixed), six arguable)
	fixtures.Symphony:        {untouched: 0.36}, // 98/334 (branch fresh40, written without reading the planner; first asked at main cce38a0: 13 wrong, none the gold's fault)
	fixtures.PlotHolders:     {untouched: 0.32}, // 100/344 (branch fresh41, written without reading the planner, questions in non-native English; first asked at main cce38a0: 14 wrong, none the gold's fault, two arguable)
	fixtures.CycleHire:       {untouched: 0.35}, // 111/314 (branch fresh42, written without reading the planner, epoch times and pence; first asked at main 33610f5: 5 wrong, none the gold's fault, two arguable)
	fixtures.Opticians:       {untouched: 0.09}, // 30/300 (branch fresh43, written without reading the planner, abbreviated PascalCase tables; first asked at main 33610f5: 270 declined, 0 wrong)
	fixtures.Brewhouse:       {untouched: 0.31}, // 100/312 (branch fresh44, written without reading the planner, half analyst-style questions; first asked at main 33610f5: 3 wrong, none the gold's fault, one arguable)
	fixtures.RadioStation:    {untouched: 0.45}, // 159/346 (branch fresh45, written without reading the planner, an application database with status enums and soft deletes; first asked at main 98d24a3: 5 wrong + 1 must-decline answered, none the gold's fault)
	fixtures.Conference:      {untouched: 0.41}, // 139/347 (branch fresh46, written without reading the planner, half comparison and nested questions; first asked at main 98d24a3: 2 wrong, none the gold's fault)
	fixtures.IceRink:         {untouched: 0.35}, // 114/324 (branch fresh47, written without reading the planner, repeated judge-score columns; first asked at main 98d24a3: 12 wrong, none the gold's fault, two arguable)
	fixtures.Helpdesk:        {untouched: 0.41}, // 128/328 (branch fresh48, written without reading the planner, every enum an integer id into a lookup table; first asked at main 9eff0f1: 11 wrong, none the gold's fault, two arguable)
	fixtures.DrivingSchool:   {untouched: 0.43}, // 130/299 (branch fresh49, written without reading the planner, camelCase plurals with is/has booleans, numbers as words; first asked at main 9eff0f1: 6 wrong, none the gold's fault once two golds were fixed)
	fixtures.CiderMill:       {untouched: 0.35}, // 118/334 (branch fresh50, written without reading the planner, composite natural keys; first asked at main 9eff0f1: 8 wrong, none the gold's fault, two arguable)
	fixtures.Lighthouses:     {untouched: 0.41}, // 79/307 (branch fresh51, written without reading the planner, type-suffixed columns; first asked at main fc3af74: 36 wrong, none the gold's fault, two arguable)
	fixtures.SwimClub:        {untouched: 0.46}, // 145/338 (branch fresh52, written without reading the planner, half the questions typed with the schema's column names; first asked at main fc3af74: 144 right, 17 wrong; 3 golds fixed (DISTINCT names merged the two Jory Trelawny), leaving 16 wrong, none the gold's fault, seven arguable)
	fixtures.Herbarium:       {untouched: 0.50}, // 178/376 (branch fresh53, written without reading the planner, _fk foreign keys and a three-level taxonomy; first asked at main fc3af74: 11 wrong, none the gold's fault, one arguable)
	fixtures.Sawmill:         {untouched: 0.27}, // 41/414 (branch fresh54, written without reading the planner, ALL-UPPERCASE legacy schema with abbreviated columns, half the questions keyword fragments; first asked at main f835308: 2 wrong, none the gold's fault)
	fixtures.GardenCentre:    {untouched: 0.34}, // 80/323 (branch fresh55, written without reading the planner, star schema with BI-analyst questions; first asked at main f835308: 3 wrong, none the gold's fault)
	fixtures.FarmersMarket:   {untouched: 0.42}, // 113/275 (branch fresh56, written without reading the planner, history tables and ratio/share questions; first asked at main f835308: 4 wrong, none the gold's fault)
	fixtures.Shearing:        {untouched: 0.09}, // 34/352 (branch fresh57, written without reading the planner, one wide denormalised job log with side tables linked by name text; first asked at main ea02943: 11 wrong + 1 must-decline answered, none the gold's fault, one arguable)
	fixtures.Petsitting:      {untouched: 0.48}, // 167/344 (branch fresh58, written without reading the planner, text UUID keys and a soft-delete column; first asked at main ea02943: 7 wrong, one gold fixed (DISTINCT names merged the two pets called Biscuit), leaving 6 wrong, none the gold's fault)
	fixtures.CanalBoats:      {untouched: 0.41}, // 138/347 (branch fresh59, written without reading the planner, calendar and time-relative questions; first asked at main ea02943: 10 wrong, three golds fixed after the first run)
	fixtures.EnergyCoop:      {untouched: 0.24}, // 66/322 (branch fresh60, written without reading the planner, polite chat-box requests with context; first asked at main 69ddb4d: 248 declined, 8 wrong, none the gold's fault)
	fixtures.MountainHuts:    {untouched: 0.53}, // 185/346 (branch fresh61, written without reading the planner, base tables plus views; first asked at main 69ddb4d: 8 wrong, one gold fixed (DISTINCT names merged the two huts called Edelweiss Hut), leaving 7 wrong)
	fixtures.PoetryMag:       {untouched: 0.40}, // 151/372 (branch fresh62, written without reading the planner, many-to-many heavy PascalCase singular tables; first asked at main 69ddb4d: 7 wrong, none the gold's fault, two arguable)
	fixtures.Tileworks:       {untouched: 0.32}, // 89/336 (branch fresh63, written without reading the planner, singular lowercase tables with <thing>_no keys and no declared foreign keys; first asked at main aaaa9aa: 6 wrong, none the gold's fault, three arguable)
	fixtures.TyreBay:         {untouched: 0.38}, // 92/339 (branch fresh65, written without reading the planner, terse typed-in-a-hurry lowercase questions; first asked at main aaaa9aa: 237 declined, 10 wrong, none the gold's fault, two arguable)
	fixtures.Seedvault:       {untouched: 0.38}, // 137/380 (branch fresh64, written without reading the planner, one sixty-column accessions table, dates written every way; first asked at main aaaa9aa: 25 wrong, three golds fixed (two DISTINCT names merged the two Morwenna Tregarths, one left out the species with no accession from 'fewer than 10 accessions'), leaving 23 wrong)
	fixtures.Orienteering:    {untouched: 0.35}, // 121/342 (branch fresh66, written without reading the planner, composite primary and foreign keys on courses, controls and results; first asked at main 6d3e381: 9 wrong, one gold fixed (a missing DISTINCT listed a non-member who won twice twice), leaving 8 wrong, none the gold's fault)
	fixtures.VegBox:          {untouched: 0.33}, // 105/310 (branch fresh67, written without reading the planner, questions in a non-native speaker's English; first asked at main 6d3e381: 200 declined, 5 wrong, none the gold's fault, two arguable)
	fixtures.Quarry:          {untouched: 0.32}, // 92/304 (branch fresh68, written without reading the planner, units in column names and questions asked in other units; first asked at main 6d3e381: 206 declined, 6 wrong, none the gold's fault)
	fixtures.PrintShop:       {untouched: 0.43}, // 133/303 (branch fresh69, written without reading the planner, comparison and difference questions; first asked at main 05bf553: 161 declined, 9 wrong, two golds fixed before the count, one arguable)
	fixtures.Toolhire:        {untouched: 0.46}, // 145/328 (branch fresh70, written without reading the planner, surrogate ids plus natural codes that questions name rows by; first asked at main 05bf553: 168 declined, 15 wrong, none the gold's fault)
	fixtures.StainedGlass:    {untouched: 0.35}, // 130/366 (branch fresh71, written without reading the planner, questions heavy on ordinals and ranks; first asked at main 05bf553: 230 declined, 6 wrong, none the gold's fault, one arguable; 1 must-decline answered)
	fixtures.Taxirank:        {untouched: 0.31}, // 107/340 (branch fresh72, written without reading the planner, time-of-day and day-of-week questions on text timestamps; first asked at main ba7ccba: 231 declined, 2 wrong, none the gold's fault after six DISTINCT-name golds were fixed to one row per driver)
	fixtures.Lettings:        {untouched: 0.51}, // 144/304 (branch fresh73, written without reading the planner, questions mostly single-record lookups an agent at a desk asks; first asked at main ba7ccba: 149 declined, 11 wrong, none the gold's fault)
	fixtures.YogaStudio:      {untouched: 0.34}, // 105/303 (branch fresh74, written without reading the planner, long analyst questions with three or more conditions at once; first asked at main ba7ccba: 190 declined, 8 wrong, none the gold's fault, three arguable)
	fixtures.Rowingclub:      {untouched: 0.49}, // 167/335 (branch fresh75, written without reading the planner, small generic column names (Name, Year, Location, Country) repeated across tables; first asked at main 3fe4fd9: 160 declined, 8 wrong, two DISTINCT-name golds fixed to one row per row before the count)
	fixtures.Rescueteam:      {untouched: 0.32}, // 97/299 answerable (branch fresh76, written without reading the planner, set-logic questions; first asked at main 3fe4fd9: 200 declined, 2 wrong, none the gold's fault)
	fixtures.ModelRail:       {untouched: 0.38}, // 117/306 (branch fresh77, written without reading the planner, questions with several output columns and explicit orderings; first asked at main 3fe4fd9: 188 declined, 1 wrong, none the gold's fault)
	fixtures.Glasshouse:      {untouched: 0.35}, // 108/300 (branch fresh79, written without reading the planner, nested questions comparing with a computed figure; first asked at main 6078cb0: 183 declined, 9 wrong, none the gold's fault)
	fixtures.BellRingers:     {untouched: 0.29}, // 90/302 (branch fresh80, written without reading the planner, questions about people by full name; first asked at main 6078cb0: 203 declined, 9 wrong, none the gold's fault)
	fixtures.Spareparts:      {untouched: 0.34}, // 113/330 since 2026-11-28 (17/330 at first contact; branch fresh78, written without reading the planner, terse abbreviated old-ERP table and column names (cust_nm, prt_desc, unit_prc, ord_hdr) the questions never use; first asked at main 6078cb0: 313 declined, 0 wrong)
	fixtures.FerryTickets:    {untouched: 0.32}, // 96/312 (branch fresh81, written without reading the planner, about half the questions ask for derived figures: durations, ages, days between dates, ratios, year-over-year; first asked at main 9c04bf3: 207 declined, 9 wrong, two arguable)
	fixtures.CateringHire:    {untouched: 0.15}, // 46/302 answerable since 2026-11-28 (5/302 at first contact; branch fresh83, written without reading the planner, snake_case jargon columns (remuneration, outgoing_on, repl_value, chg_per_day, qty_out) and questions in customers' words (kit, orders, breakages) that never use the schema's; first asked at main 9c04bf3: 297 declined, 0 wrong)
	fixtures.Potteryclass:    {untouched: 0.45}, // 160/351 (branch fresh82, written without reading the planner, a third of the questions typed with real people's misspellings; first asked at main 9c04bf3: 187 declined, 4 wrong, none the gold's fault after two golds were made one row per student)
	fixtures.Blooddrive:      {untouched: 0.50}, // 150/294 (branch fresh86, written without reading the planner; first asked at main 5e82b27: 139 declined, 5 wrong, none the gold's fault after four golds were made one row per donor)
	fixtures.Groomingsalon:   {untouched: 0.58}, // 176/301 (branch fresh85, written without reading the planner; first asked at main 5e82b27: 122 declined, 3 wrong, none the gold's fault after four golds were made one row per dog or owner)
	fixtures.Boardgames:      {untouched: 0.49}, // 154/309 (branch fresh84, written without reading the planner, PascalCase singular tables, lent-by and checked-in-by staff keys on a loan; first asked at main 5e82b27: 152 declined, 3 wrong, none the gold's fault after one gold was made one row per game)
	fixtures.KartingTrack:    {untouched: 0.39}, // 119/300 (branch fresh87, written without reading the planner, Spider-like Title_Case, marshal and starter staff keys on a heat; first asked at main 0f81e3c: 171 declined, 10 wrong, none the gold's fault, three arguable)
	fixtures.StampAuction:    {untouched: 0.47}, // 88/270 (branch fresh88, written without reading the planner, lowercase plurals with no declared foreign keys, seller and buyer keys on a lot; first asked at main 0f81e3c: 181 declined, 1 wrong, not the gold's fault)
	fixtures.CoffeeRoastery:  {untouched: 0.41}, // 175/422 (branch fresh89, written without reading the planner, lowercase singular tables with camelCase columns, roaster and taster keys from a roast to employee; first asked at main 0f81e3c: 240 declined, 7 wrong, none the gold's fault)
	fixtures.PrintingPress:   {untouched: 0.64}, // 163/251 (branch fresh91, written without reading the planner, Spider-like Title_Case, commissioning and copy editor keys on a book; first asked at main 3449329: 87 declined, 1 wrong, not the gold's fault)
	fixtures.CommunityGarden: {untouched: 0.37}, // 98/258 (branch fresh92, written without reading the planner, lowercase singular tables with run-together columns, weighed-by and recorded-by keys from a harvest to volunteer; first asked at main 3449329: 159 declined, 1 wrong, not the gold's fault)
	fixtures.SailingSchool:   {untouched: 0.59}, // 152/253 answerable, 170/271 in all (branch fresh90, written without reading the planner; first asked at main b5f97d5: 2 wrong)
	fixtures.BandTour:        {untouched: 0.53}, // 142/263 answerable, 160/281 in all (branch fresh94, written without reading the planner, PascalCase plurals, sound engineer and tour manager keys from a show to crew; first asked at main 6be6f34: 119 declined, 2 wrong, none the gold's fault, one arguable)
	fixtures.VeterinaryGroup: {untouched: 0.50}, // 116/227 answerable, 134/245 in all (branch fresh93, written without reading the planner; first asked at main 6be6f34: 1 wrong)
	fixtures.Harbourmaster:   {untouched: 0.31}, // 76/268 (branch fresh95, written without reading the planner, short abbreviated column names, weighed-by and recorded-by keys from a landing to staff; first asked at main 6be6f34: 188 declined, 4 wrong, none the gold's fault (2 DISTINCT golds fixed before))
	fixtures.CityBikes:       {untouched: 0.53}, // 160/296 (branch fresh97, written without reading the planner, Spider-style mixed-case columns, mechanic and inspector keys from a repair to volunteer; first asked at main 33dfec2: 131 declined, 5 wrong, none the gold's fault)
	fixtures.Quizleague:      {untouched: 0.35}, // 126/351 (branch fresh98, written without reading the planner, PascalCase singular tables, home-team and away-team keys from a fixture to Team; first asked at main 33dfec2: 222 declined, 3 wrong, none the gold's fault)
	fixtures.ClimbingGym:     {untouched: 0.46}, // 138/294 answerable (47%), 156/312 in all (branch fresh96, written without reading the planner, set_by and checker keys from a problem to setters, a wall angle stored as text; first asked at main 33dfec2: 151 declined, 5 wrong, none the gold's fault (4 DISTINCT/duplicate-name golds fixed before the recorded run))
	fixtures.Dogshow:         {untouched: 0.48}, // 139/284 answerable (49%), 157/302 in all (branch fresh99, written without reading the planner, Spider-style UPPER_CASE tables, JUDGE_ID and STEWARD_ID keys from an entry to JUDGE, a typical weight stored as text; first asked at main adbf0f9: 140 declined, 5 wrong, none the gold's fault)
	fixtures.Tailoring:       {untouched: 0.60}, // 165/272 (branch fresh100, written without reading the planner, Spider-style singular tables, cutter and finisher keys from an order to tailor, a chest size and a fabric weight stored as text; first asked at main adbf0f9: 105 declined, 2 wrong, none the gold's fault, one arguable)
	fixtures.PianoTuning:     {untouched: 0.55}, // 162/288 answerable (56%), 180/306 in all (branch fresh101, written without reading the planner, tuner and checker keys from a visit to technicians, a string count, unit cost and pitch stored as text; first asked at main adbf0f9: 115 declined, 11 wrong, none the gold's fault (two arguable))
	fixtures.Bookbinding:     {untouched: 0.56}, // 152/267 answerable (57%), 170/285 in all (branch fresh103, written without reading the planner, PascalCase tables, sewn-by and covered-by keys from a commission to binders, a quoted price and hourly rate stored as text; first asked at main 40dd521: 110 declined, 5 wrong, none the gold's fault, four on tied top-1 answers)
	fixtures.FerrisWheel:     {untouched: 0.36}, // 94/257 answerable (37%), 112/275 in all (branch fresh104, written without reading the planner, operator and inspector keys from a ride day to operators, a minimum height and band price stored as text; first asked at main 40dd521: 158 declined, 5 wrong, none the gold's fault)
	fixtures.Lifeboats:       {untouched: 0.50}, // 136/266 answerable (51%), 154/284 in all (branch fresh105, written without reading the planner, helm and navigator keys from a launch to crew members, a boat length stored as text; first asked at main 74fb748: 129 declined, 1 wrong, not the gold's fault)
	fixtures.HoneyFarm:       {untouched: 0.46}, // 133/286 answerable (47%), 151/304 in all (branch fresh107, written without reading the planner, extracted-by and labelled-by keys from a harvest to keeper, a field area and a price per jar stored as text; first asked at main 74fb748: 148 declined, 5 wrong, none the gold's fault (two arguable: the gold also wants the town of a shop))
	fixtures.ChoirFest:       {untouched: 0.53}, // 140/257 answerable (54%), 158/275 in all (branch fresh106, written without reading the planner, adjudicator and accompanist keys from a performance to people, a duration stored as text; first asked at main 74fb748: 110 declined, 7 wrong, none the gold's fault after four golds fixed)
	fixtures.WatchRepair:     {untouched: 0.55}, // 162/291 answerable (56%), 180/309 in all (branch fresh108, written without reading the planner, repaired-by and polished-by keys from a repair job to watchmaker, an hourly rate and a water resistance stored as text; first asked at main 495ecb2: 129 declined, 0 wrong)
	fixtures.SalvageYard:     {untouched: 0.51}, // 158/303 answerable (52%), 176/321 in all (branch fresh110, written without reading the planner, pulled-by and checked-by worker keys on a part, a mileage stored as text; first asked at main 495ecb2: 135 declined, 10 wrong, none the gold's fault after one gold fixed)
	fixtures.Theatreschool:   {untouched: 0.64}, // 185/284 answerable (65%), 202/302 in all (branch fresh109, written without reading the planner, PascalCase singular tables, lead and assistant tutor keys from a class, fee and attendance stored as text; first asked at main 971e091: 94 declined, 6 wrong, none the gold's fault after two golds fixed)
	fixtures.Puppetry:        {untouched: 0.59}, // 158/265 answerable (60%), 176/283 in all (branch fresh111, written without reading the planner, Spider-like singular tables, lead and voice puppeteer keys from a performance, a weight and a capacity stored as text; first asked at main 30d6666: 100 declined, 7 wrong, none the gold's fault after two golds fixed)
	fixtures.Foraging:        {untouched: 0.43}, // 132/298 answerable (44%), 150/316 in all (branch fresh112, written without reading the planner, leader and recorder keys from a foray to member_info, a woodland area stored as text; first asked at main 30d6666: 165 declined, 1 wrong, not the gold's fault)
	fixtures.Lockkeeping:     {untouched: 0.57}, // 151/262 answerable (58%), 169/280 in all (branch fresh114, written without reading the planner, Hungarian tbl-prefixed tables with camelCase columns, operator and assistant keeper keys on a passage, a lock rise stored as text; first asked at main 7430d04: 107 declined, 4 wrong, one arguably the gold's)
	fixtures.BowlsClub:       {untouched: 0.31}, // 8/228 answerable (3.5%), 26/246 in all (branch fresh113, written without reading the planner, short abbreviated names plyr/team/tm_mbr/fxtr/grn/ump, home and away team keys on a fixture, a handicap stored as text; first asked at main 30d6666: 220 declined, 0 wrong)
	fixtures.VintageCars:     {untouched: 0.47}, // 127/266 answerable (48%), 145/284 in all (branch fresh116, written without reading the planner, Title Case names with spaces, driver and navigator keys from a rally entry to "Club Member", an engine size stored as text; first asked at main 7430d04: 136 declined, 3 wrong, none the gold's fault)
	fixtures.Marathon:        {untouched: 0.43}, // 100/226 answerable (44%), 118/244 in all (branch fresh115, written without reading the planner, race_date an INTEGER yyyymmdd, distance_km and finish_time stored as text, pacer self-reference, marshal and timekeeper keys on a race volunteer row; first asked at main 7430d04: 123 declined, 3 wrong)
	fixtures.Almshouses:      {untouched: 0.36}, // 80/220 answerable (36%), 98/238 in all (branch fresh119, written without reading the planner, long descriptive snake_case columns, text parish codes, weekly rent and payment amounts stored as text, next-of-kin self-reference, reporting and approving trustee keys on a repair; first asked at main a1a5dc6: 137 declined, 3 wrong, none the gold's fault)
	fixtures.Cheesemakers:    {untouched: 0.57}, // 121/209 answerable (58%), 139/227 in all (branch fresh117, written without reading the planner, pk keys and fk_<noun> foreign keys, aging_months and weight_kg stored as text, trainer self-reference, maker and checker keys on a batch; first asked at main a1a5dc6: 83 declined, 5 wrong, none provably the gold's fault)
	fixtures.Signalbox:       {untouched: 0.27}, // 65/234 answerable (28%), 83/252 in all (branch fresh118, written without reading the planner, Oracle-style UPPER_CASE abbreviated names, LEVER_CNT and HRS stored as text, mentor self-reference, offering and accepting signaller keys on a train movement; first asked at main a1a5dc6: 166 declined, 3 wrong)
	// Held out from the planner's development: the "never seen" figure.
	fixtures.Hotels: {untouched: 0.60, edited: 0.65}, // 68% / 70%
	// Benchmark-style questions, at what the planner on main answers
	// (2026-11-26); the target is 40%.
	fixtures.Allotments: {untouched: 0.81}, // 105/129
	fixtures.Ferries:    {untouched: 0.78}, // 104/132
	fixtures.Orchestra:  {untouched: 0.70}, // 94/134
	fixtures.Permits:    {untouched: 0.74}, // 90/121
	fixtures.League:     {untouched: 0.64}, // held out: 84/131
}

// knownWrong lists answers the planner on main gets wrong, by fixture and
// question id, with the reason. They are reported but do not fail the test;
// an entry whose question is no longer answered wrongly fails it, so the
// list only shrinks. The planner rewrite (branch planner) emptied it; the
// benchmark-style fixtures filled it again for a day (24 at main add2041),
// main at 9113ad9 emptied it; the fresh rescue and hangar fixtures brought
// 14 more, which the every-word rules of 2026-11-26 turned into answers or
// declines. The fresh clinic and campus fixtures (2026-11-26) brought 28;
// general rules of the same day turned 26 of them into answers or declines;
// the next session's rules (a comparison on the table before it, a value
// after related rows, links both ways declined) emptied it again. The fresh
// apiary and waterworks fixtures brought 8; general rules of the same
// session turned 7 into answers or declines.
var knownWrong = map[string]string{
	// found when day dates ("1 January 2007") were first read (11th session)
	"drivingschool/ds-tst-under-18":    "'tests taken by learners born after 1 January 2007' groups the count by learner: the analyst reading takes 'by' after 'taken' as a grouping (the same with 'after 2007')",
	"petsitting/ps-booking-after-asof": "'bookings that start after 1 October 2025' over a timestamp starts after that day (from 2 October); the gold compares > '2025-10-01', counting 1 October's bookings (arguable)",
	// recordlabel (branch fresh14), first asked at main 4c238f8; none the gold's fault.
	// school (branch fresh13), first asked at main 04f83c6: its 16 wrong answers are now right or declined.
	// festival (branch fresh16), first asked at main 4159b8a: its 5 wrong answers are now right or declined.
	// observatory (branch fresh15), first asked at main 4159b8a (15 wrong then); none the gold's fault.
	// motcentre (branch fresh17), first asked at main 05029af: its 14 wrong answers are now right or declined.
	// wildlife (branch fresh18), first asked at main 05029af: its 2 wrong answers are now right.
	// leisure (branch fresh20), first asked at main bf76682: its 1 wrong answer (and 1 HTTP 500) are now right.
	// vineyard (branch fresh19), first asked at main 19f2d20: its 1 wrong answer is now declined.
	// recycling (branch fresh22), first asked at main 867ac3d: its 6 wrong answers are now right or declined.
	// library (branch fresh21), first asked at main 4570b93: its 4 wrong answers (and 1 HTTP 504) are now right or declined.
	// weather (branch fresh24), first asked at main 703114a: its 5 wrong answers are now right or declined.
	// cinema (branch fresh23), first asked at main 703114a: 11 wrong, none the gold's fault; 10 are now right or declined. One left is arguable (a quarter shown in another shape).
	// tutoring (branch fresh25), first asked at main ad8bea0: 3 wrong, none the gold's fault (and 1 HTTP 500, a planner panic on tu-sixth-form-2); all four fixed by general rules the same day.
	// museum (branch fresh26), first asked at main ad8bea0: 10 wrong, none the gold's fault; 8 declined by general rules the same day.
	"museum/mu-property-names": "'what properties are recorded for objects' lists all 136 property rows, not the 4 property names",
	// wholesale (branch fresh27), first asked at main 1921369: 0 right, 325 declined, 2 wrong, none the gold's fault; both declined by a general rule the same day.
	// bandtour (branch fresh94), first asked at main 6be6f34: 2 wrong, none the gold's fault, one arguable.
	// veterinarygroup (branch fresh93), first asked at 6be6f34: 1 wrong, none the gold's fault (2 DISTINCT-name golds fixed before the recorded run).
	// sailingschool (branch fresh90), first asked at b5f97d5: 2 wrong, none the gold's fault (3 DISTINCT golds fixed before).
	// makerspace (branch fresh28), first asked at fb59d13: 12 wrong, none the gold's fault, one arguable; 6 right or declined by general rules the same day.
	"makerspace/ms-top-cat":           "'which category has the most tools' keeps one of the two categories tied at four (LIMIT 1)",
	"makerspace/ms-top-cat-2":         "'the largest category by number of tools' keeps one of the two categories tied at four (LIMIT 1)",
	"makerspace/ms-bk-per-month-2025": "'bookings in each month of 2025' groups by created_at (when booked), not starts_at (arguable)",
	// symphony (branch fresh40), first asked at main cce38a0: 13 wrong, none the gold's fault; 10 read "pieces" as the many-to-many table orch_concert_pieces.
	"symphony/oc-per-family":           "'musicians in each instrument family' groups by instrument id as well as family: 13 rows per instrument, not 5 per family",
	"symphony/oc-principal-per-family": "'principals in each instrument family' counts distinct families per instrument (13 rows of 1), not principals per family",
	"symphony/oc-prog-holloway":        "'which pieces have been performed at Holloway Hall' lists the 7 pieces, the gold the 6 distinct titles (arguable: two pieces share the title Symphony No. 2)",
	"symphony/oc-comp-nat-pieces":      "'pieces by composers of each nationality' groups per composer (12 rows) and counts performed pieces, not 9 nationalities",
	// hangar: declined until "hold a C" was read (2026-11-27, fifth session).
	"hangar/hg-licence-per-trade": "'for each trade, how many staff hold a licence' filters the licence holders before grouping, so trades with none have no row (gold: COUNT(Licence) per trade, 0 kept; arguable: a WHERE before GROUP BY is the usual reading)",
	// kennel (branch fresh29), first asked at main b4e3543: 27 wrong, none the gold's fault, five arguable.
	"kennel/kn-top-breed":             "'which breed has the most dogs' keeps one of the three breeds tied at four dogs (LIMIT 1)",
	"kennel/kn-top-breed-2":           "'the breed with the largest number of dogs' keeps one of the three breeds tied at four dogs (LIMIT 1)",
	"kennel/kn-dogs-untitled-count-2": "'count dogs that have no title' reads title as Show_Award.Title IS NULL (0), not Titled = 'N' (27)",
	"kennel/kn-pct-titled-2":          "'percent of dogs with a title' counts dogs with any award (Show_Award.Title), not Titled = 'Y' (arguable: Show_Award has a Title column)",
	"kennel/kn-never-sponsored-2":     "'members who are not the sponsor of any member' returns the members with no sponsor (Sponsor_ID IS NULL): the self-reference read the wrong way",
	"kennel/kn-dog-most-entries-2":    "'the dog with the highest number of entries' keeps one of the two dogs tied at 15 (LIMIT 1)",
	// couriers (branch fresh30), first asked at main b4e3543: 177/402 right, 218 declined, 7 wrong, none the gold's fault, one arguable.
	"couriers/cr-cust-complained-2": "'customers who complained at least once' counts each customer's orders HAVING COUNT(*) >= 1: the complaint is dropped",
	// chessclub (branch fresh31), first asked at main 1619fc0: 108/389 right, 274 declined, 7 wrong (an eighth was the gold's fault and fixed), one arguable.
	// livestock (branch fresh32), first asked at main 1619fc0: 126/344 right, 212 declined, 6 wrong + 1 must-decline answered; 1 was the gold's fault (fixed), one arguable.
	"livestock/lv-animals-per-species-2": "'head count by species' sums lots.head_count (head offered) instead of counting registered animals (arguable: lots has a head_count column)",
	// podcasts (branch fresh33), first asked at main 9f6fde2: 149/371 right, 201 declined, 21 wrong; none the gold's fault. A download row is one episode's monthly total: 15 of the 21 count download rows (or read a month as the episode's release date) where the gold sums download.total (arguable where the question says only "downloads").
	"podcasts/pc-dl-best-month-2": "'month with the highest total downloads' returns the single row with the largest total, not the month with the largest SUM(total)",
	// trams (branch fresh34), first asked at main 9f6fde2: 181/386 right, 198 declined, 7 wrong, none the gold's fault, two arguable.
	"trams/tm-journey-per-month-2025":   "'for each month of 2025, how many journeys' shows the month as '2025-01', the gold as '01' (arguable: the same months)",
	"trams/tm-journey-per-month-2025-2": "'journeys per month in 2025' shows the month as '2025-01', the gold as '01' (arguable: the same months)",
	// escaperooms (branch fresh35), first asked at main 68efad9: 152/399 right, 237 declined, 10 wrong; one the gold's fault (er-rv-broken-lock, fixed: DISTINCT name merged the two rooms called The Vault), 9 left.
	// firebrigade (branch fresh36), first asked at main 68efad9: 95/348 right, 249 declined, 4 wrong, none the gold's fault.
	// bakery (branch fresh38), first asked at main 3b51901: 126/326 right, 193 declined, 7 wrong, none the gold's fault, three arguable.
	"bakery/bak-takings-this-month-2": "'what have the shops taken in October 2025' lists shops opened in October 2025 (none), not SUM(Takings) of that month",
	"bakery/bak-avg-daily-takings":    "'average daily takings per shop' gives AVG(Takings) of the lines for each day and shop (659 rows), not each shop's mean day total",
	// almanac (branch fresh37), first asked at main 3b51901: 145/340 right, 186 declined, 9 wrong, none the gold's fault, one arguable.
	"almanac/al-village-most-residents":   "'which village has the most residents' keeps one of the two villages tied at 7 (ORDER BY COUNT(*) DESC LIMIT 1)",
	"almanac/al-village-most-residents-2": "'village with the largest number of residents' keeps one of the two villages tied at 7 (LIMIT 1)",
	"almanac/al-wx-dry-days-2":            "'weather notes with zero rain' filters \"rain mm\" IS NULL (a missing reading, 35) instead of 0 (518)",
	// coastferry (branch fresh39), first asked at main cce38a0: 157/336 right, 168 declined, 11 wrong, one the gold's fault (fy-port-by-opened-2, fixed), six arguable.
	"coastferry/fy-vessel-most-cars-2":  "'name the vessel with the largest car capacity and give the capacity': the analyst reading drops 'capacity' (car or passenger capacity?) because the ranked column is car capacity, and shows the name alone (was right by accident while 'nm' of distance_nm read as a name)",
	"coastferry/fy-port-by-opened":      "'ports with a known opening year, oldest first' shows only opened_year (no port name) and keeps the two ports with no year",
	"coastferry/fy-sail-per-month-2025": "'sailings in each month of 2025' labels months '2025-01' instead of '01' (arguable: same counts, another label)",
	"coastferry/fy-crew-home-name-2":    "'every crew member's name and home port name' lists all 20 crew with each home port's name, one NULL; the gold's inner JOIN drops the crew member with no home port (arguable: 'every')",
	// plotholders (branch fresh41), first asked at main cce38a0: 100/344 right, 230 declined, 14 wrong, none the gold's fault, two arguable.
	"plotholders/ag-plot-largest-2":  "'the plot number of largest plot by size' keeps one of the two 300 m² plots (ORDER BY … LIMIT 1)",
	"plotholders/ag-hv-month-2025":   "'harvests per month in 2025' labels months '2025-06', the gold '06' (arguable: same counts, the year is fixed by the question)",
	"plotholders/ag-hv-month-2025-2": "'how many harvest in each month of 2025' labels months '2025-06', the gold '06' (arguable, as above)",
	"plotholders/ag-in-dates":        "'on which dates inspections happen' lists inspected_on of all 112 inspections without DISTINCT (16 dates)",
	"plotholders/ag-rent-max-2":      "'tenant of the biggest single rent payment' picks the tenant with the most payments (COUNT), not MAX(amount)",
	// cyclehire (branch fresh42), first asked at main 33610f5: 111/314 right, 198 declined, 5 wrong, none the gold's fault, two arguable.
	"cyclehire/ch-pl-student-2":   "'who has a Student plan' lists the plan row (SELECT … FROM plan WHERE id = 4), not the six members on it",
	"cyclehire/ch-tr-months-2025": "'trips in each month of 2025' labels months '2025-01', the gold '01' (arguable: same counts, the year is fixed by the question)",
	"cyclehire/ch-tr-first-day":   "'on what date was the first trip taken' returns the raw epoch start_ts, not the date (date(…, 'unixepoch'))",
	"cyclehire/ch-tr-over-free":   "'trips longer than the plan's free minutes' compares plan.free_minutes > plan.free_minutes (always false), drops the trip duration and groups by member",
	// opticians (branch fresh43), first asked at main 33610f5: 30/300 right, 270 declined, 0 wrong; nothing to list.
	// brewhouse (branch fresh44), first asked at main 33610f5: 100/312 right, 209 declined, 3 wrong, none the gold's fault, one arguable.
	"brewhouse/bw-beer-lager-abv-2": "'what ABV does each of our lagers have' lists the DISTINCT ABVs alone, without the names of the three lagers",
	"brewhouse/bw-del-beer-rev-2":   "'what has each beer earned from keg deliveries' lists the Beer rows that had deliveries, with no SUM(Kegs * PricePerKeg)",
	// radiostation (branch fresh45), first asked at main 98d24a3: 159/346 right, 182 declined, 5 wrong + 1 must-decline answered, none the gold's fault.
	"radiostation/rs-ar-explicit":  "'which artists have explicit tracks' lists the 8 artists, the gold the 7 distinct names (arguable: two artists share a name)",
	"radiostation/rs-ar-countries": "'which countries do the artists come from' lists whole artist rows filtered to artists played on genre 9 (Country), not DISTINCT country",
	"radiostation/rs-pl-genre":     "'how many tracks were played by genre of show' gives one COUNT of tracks, no GROUP BY genre",
	"radiostation/rs-ad-2025":      "'what were advert fees in 2025' reads 2025 as fee = 2025, not the episodes' air year, and does not SUM",
	// conference (branch fresh46), first asked at main 98d24a3: 139/347 right, 206 declined, 2 wrong, none the gold's fault.
	"conference/cf-room-cap-between": "'show the rooms with a capacity between 100 and 200, with their capacity' returns the capacity column alone, without the room names",
	"conference/cf-att-all-in-count": "'how many attendees checked in to every talk they registered for' counts checked-in attendees per talk (37 rows), not the attendees whose registrations are all checked in",
	// icerink (branch fresh47), first asked at main 98d24a3: 114/324 right, 198 declined, 12 wrong, none the gold's fault, two arguable.
	"icerink/ir-level-few":            "'which levels have fewer than 6 skaters' keeps Junior and Senior, which have none (NOT IN … HAVING COUNT(*) >= 6; arguable: zero is fewer than six)",
	"icerink/ir-les-coach-distinct-2": "'distinct skaters taught by each coach' counts skaters whose skaters.coach_id is the coach, not DISTINCT lessons.skater_id per lessons.coach_id",
	"icerink/ir-les-yuki":             "'skaters who had a lesson taught by Yuki Tanaka' reads skaters.coach_id = Yuki and any lesson at all, not lessons.coach_id (5 rows, want 18)",
	"icerink/ir-tk-half-full-2":       "'tickets sold over 50% of the capacity' becomes tickets.sold > 50 on single ticket rows and shows only capacity",
	"icerink/ir-tk-no-senior":         "'session titles with no senior tickets' becomes age_band <> 'senior' on rows, not an anti-join (3 titles, want Friday Disco)",
	"icerink/ir-tk-avg-per-title-2":   "'average tickets sold per session, for each session title' groups by session, not by title (131 rows, want 3)",
	"icerink/ir-rs-per-level":         "'how many competition results for each level' counts DISTINCT competitions, not result rows",
	// helpdesk (branch fresh48), first asked at main 9eff0f1: 128/328 right, 189 declined, 11 wrong, none the gold's fault, two arguable.
	"helpdesk/hd-cust-contract-between":       "'companies with a contract value between 5000 and 12000, with the value' drops the value column it was asked for",
	"helpdesk/hd-cust-country-tickets-2025-2": "'tickets did customers in each country open in 2025' reads the verb 'open' as status_id = 1 (status Open): 4 rows, want 6",
	"helpdesk/hd-cust-open":                   "'open tickets by customer' keeps status Open only (status_id = 1), not every unresolved status, and shows customer.id (arguable: a status is named Open)",
	"helpdesk/hd-tk-open-by-prio":             "'open tickets by priority' keeps status Open only (status_id = 1), not Open, In Progress and Waiting on Customer (arguable: a status is named Open)",
	// drivingschool (branch fresh49), first asked at main 9eff0f1: 130/299 right, 163 declined, 6 wrong, none the gold's fault (two golds fixed before these were counted).
	"drivingschool/ds-les-observed-2":  "'count the observed lessons' counts DISTINCT observerId (10), not lessons with an observer (49)",
	"drivingschool/ds-ctr-town-passes": "'how many passes has each town's centres recorded' counts DISTINCT centres per town among passed tests, not the passes",
	// cidermill (branch fresh50), first asked at main 9eff0f1: 118/334 right, 208 declined, 8 wrong, none the gold's fault, two arguable.
	"cidermill/cm-var-kingston-rows": "'which rows have Kingston Black trees' lists whole tree rows (7 rows), not DISTINCT row_no (row 2)",
	"cidermill/cm-so-last-2":         "'date of the most recent order' shows pressing_date of the latest order, not ordered_on",
	// lighthouses (branch fresh51), first asked at main fc3af74: 79/307 right, 192 declined, 36 wrong, none the gold's fault, two arguable.
	"lighthouses/lh-wt-lh-keepers": "'how many different keepers have kept watch at each lighthouse' counts keepers posted there who kept any watch (keeper.lighthouse_id), not DISTINCT keepers of the watches at it",
	"lighthouses/lh-ss-tankers":    "'how many tankers have been sighted' counts sighting rows, not SUM(ship_cnt) (arguable: a sighting records ship_cnt ships)",
	"lighthouses/lh-ss-wi-tankers": "'how many yachts were sighted from the Western Isles' counts sighting rows, not SUM(ship_cnt) (arguable, as lh-ss-tankers)",
	// swimclub (branch fresh52), first asked at main fc3af74: 144/338 right, 177 declined, 17 wrong; one was the gold's fault (fixed, with two golds that merged the two Jory Trelawny the same way), 16 left, seven arguable (an age group shown by id and label, a lane by id).
	"swimclub/sw-sw-u10-or-u12-2": "'count swimmers where age_group_code in ('U10', 'U12')' joins age_groups and ANDs code = 'U10' with age_group_code = 'U12': 0, want 10",
	"swimclub/sw-buddy-counts":    "'count swimmers per buddy_id' shows the buddy's first and last name, not buddy_id (arguable)",
	"swimclub/sw-la-sessions-2":   "'count training_sessions per pool_lane_id' shows pool_lanes.id, the gold pool and lane_no (arguable: the question names the id)",
	"swimclub/sw-ga-latest-2":     "'gala with the latest gala_date' shows only gala_date, not the gala's name",
	"swimclub/sw-ge-isolde":       "'Isolde Marchbank's gala entries with the gala, stroke, distance and placement' leaves out the gala's name (adds gala_id IS NOT NULL)",
	// herbarium (branch fresh53), first asked at main fc3af74: 178/376 right, 187 declined, 11 wrong, none the gold's fault, one arguable.
	"herbarium/hb-col-second-2":   "'the collector with the second highest number of specimens' keeps one of the two collectors tied at 44 (LIMIT 1 OFFSET 1; arguable)",
	"herbarium/hb-loan-borrowers": "'which institutions have borrowed specimens' lists the collectors' institution of every specimen, not loan.borrower",
	// sawmill (branch fresh54), first asked at main f835308: 41/414 right, 371 declined, 2 wrong, none the gold's fault.
	"sawmill/sm-supp-glenmuir":        "'Glenmuir Forestry supplier numbers and regions' shows REGION alone, not SUPP_NO beside it (declined until SUPP was spelled out as supplier)",
	"sawmill/sm-line-big-qty":         "'order lines quantity 70 or more' lists the 58 lines, the gold counts them (arguable: a keyword query with no 'how many')",
	"sawmill/sm-line-rare-products-2": "'products on fewer than fifteen order lines' keeps the product never ordered (NOT IN … HAVING COUNT(*) >= 15; arguable: zero is fewer than fifteen)",
	// gardencentre (branch fresh55), first asked at main f835308: 80/323 right, 240 declined, 3 wrong, none the gold's fault.
	"gardencentre/gc-prod-over-300-units": "'products that have sold more than 300 units' reads units as fact_stock_counts.units_on_hand > 300, not SUM(fact_sales.quantity) > 300",
	// farmersmarket (branch fresh56), first asked at main f835308: 113/275 right, 158 declined, 4 wrong, none the gold's fault.
	"farmersmarket/fm-pt-fees": "'total fee paid by traders of each produce type' groups by trader as well as produce type: 23 rows, want 8",
	// shearing (branch fresh57), first asked at main ea02943: 34/352 right, 307 declined, 11 wrong + 1 must-decline answered, none the gold's fault.
	"shearing/sh-weather-most":     "'the most common weather on jobs' shows the code and the count, not the weather_codes description (arguable)",
	"shearing/sh-trainer-jobs":     "'jobs done by shearers trained by Owain Jenkins' counts Owain Jenkins's own jobs, not his trainees'",
	"shearing/sh-leader-base-same": "'crews with a leader living in the crew's base town' lists base_town of crews with a leader, never comparing the leader's home_town",
	"shearing/sh-decline-9":        "must-decline 'home town of the shearer listed on the Elan crew' (leader or deputy left open) answered with the home towns of all Elan members",
	// petsitting (branch fresh58), first asked at main ea02943: 167/344 right, 171 declined, 6 wrong (after one gold fixed), none the gold's fault.
	"petsitting/ps-species-cats":     "'list the names of all cats' answers species.name of the Cat row (1 row), not the names of the pets of species Cat",
	"petsitting/ps-pet-chipped-dogs": "'which dogs have a microchip' shows pets.microchip, not the dogs' names (and filters on species.id, never microchip IS NOT NULL)",
	// canalboats (branch fresh59), first asked at main ea02943: 138/347 right, 199 declined, 10 wrong (after three golds were fixed: two collapsed the two boats called Dabchick, one left out hirers with no hire from "at most twice").
	"canalboats/cb-hire-per-month-2024":   "'hires in each month of 2024' labels the month '2024-01', the gold '01' (same counts; arguable, a label the comparison does not match)",
	"canalboats/cb-hire-per-month-2024-2": "'monthly number of hires in 2024' labels the month '2024-01', the gold '01' (same counts; arguable)",
	"canalboats/cb-repair-per-month-2025": "'repairs in each month of 2025' labels the month '2025-01', the gold '01' (same counts; arguable)",
	"canalboats/cb-hire-top5-price-2":     "'top 5 hires by price, with the boat name' joins boat but shows hire columns only, no boat_name",
	"canalboats/cb-boat-most-hired":       "'which boat has been hired the most' takes LIMIT 1 where three boats tie on 81 hires",
	"canalboats/cb-hirer-distinct-2025-2": "'count distinct hirers this year' counts hirers whose first_hire_year is 2025, not distinct hirer_id of 2025 hires",
	// energycoop (branch fresh60), first asked at main 69ddb4d: 66/322 right, 248 declined, 8 wrong, none the gold's fault.
	"energycoop/ec-sp-repeat-buyers": "'members who have bought shares more than once' tests members.share_count > 1, not two or more share_purchases rows",
	"energycoop/ec-div-never-count":  "'members who have had no dividend at all' counts members with a dividend row whose dividend_year IS NULL (0), not members with no dividend row (10)",
	"energycoop/ec-sv-latest":        "'when was the most recent site visit, and where' shows visit_date alone, not the site's name",
	// mountainhuts (branch fresh61), first asked at main 69ddb4d: 184/346 right, 154 declined, 8 wrong; two golds fixed after the first run (DISTINCT names merged the two huts called Edelweiss Hut), leaving 7 wrong, none the gold's fault, one arguable.
	"mountainhuts/mh-season-most-seasons":  "'which warden has worked the most seasons' takes LIMIT 1 where two wardens tie on four seasons",
	"mountainhuts/mh-season-young-wardens": "'wardens working in 2025 born in 1985 or later' reads 2025 as a second birth_year range, not the 2025 season",
	"mountainhuts/mh-bk-per-month-2024":    "'bookings arrived in each month of 2024' labels the month '2024-06', the gold '06' (same counts; arguable)",
	// poetrymag (branch fresh62), first asked at main 69ddb4d: 151/372 answerable right, 214 declined, 7 wrong, 18/18 must-decline declined, none the gold's fault, two arguable.
	"poetrymag/pm-poet-never-published-count": "'how many poets have never had a poem in an issue' counts poets who were published AND have no poem (a contradiction: 0), not poets outside the published set (2)",
	"poetrymag/pm-poem-total-lines-2":         "'total line count of every poem' sums LineCount per poem (42 rows), not over all poems (arguable: 'of every poem' read as 'for each poem')",
	"poetrymag/pm-issue-autumn-2":             "'which issues are autumn issues, and from what year' shows Year alone, not the IssueNumber",
	"poetrymag/pm-sub-per-month-2025":         "'submissions in each month of 2025' labels the month '2025-01', the gold '01' (same counts; arguable, a label the comparison does not match)",
	// tileworks (branch fresh63), first asked at main aaaa9aa: 89/336 answerable right, 241 declined, 6 wrong, 18/18 must-decline declined, none the gold's fault, three arguable.
	"tileworks/tw-potter-trained-by-morwenna-2": "'list the potters trained by Morwenna Tregear' reads the self-reference backwards: Morwenna's own trained_by (NULL), not the potters whose trained_by is her",
	"tileworks/tw-glaze-copper-patterns":        "'which patterns have been made in Copper Ember glaze' takes 'made' for tiles_made and lists DISTINCT pattern, tiles_made (since the links read from column names, 10th session)",
	"tileworks/tw-batch-patterns":               "'what patterns are made?' takes 'made' for tiles_made and lists DISTINCT pattern, tiles_made (103 rows), not the six patterns",
	"tileworks/tw-comm-top-city":                "'which city has placed the most commissions' answers the NULL city (10 commissions with no city) with LIMIT 1, not Penzance and Truro (6 each)",
	// tyrebay (branch fresh65), first asked at main aaaa9aa: 92/339 answerable right, 237 declined, 10 wrong, 18/18 must-decline declined, none the gold's fault, two arguable.
	"tyrebay/tb-br-marlford-fitters":   "'fitters at the marlford branch' lists the Marlford branch rows whose fitters are at level 2 (reads 'fitters' as the level called Fitter), not the fitters",
	"tyrebay/tb-br-marlford-fitters-2": "'who works at the branch in marlford' lists the branch row, not its fitters",
	"tyrebay/tb-br-pair":               "'jobs kettleby central vs brindle retail park' sums the job totals of the two branches, not the number of jobs",
	"tyrebay/tb-fit-aisha-inspected":   "'jobs inspected by aisha mwangi' lists her 44 jobs, not their count (arguable: the question has no 'how many', the gold counts)",
	"tyrebay/tb-job-no-parts":          "'jobs w/o parts' lists the 144 jobs with no parts; the gold counts them (arguable: the question has no 'how many'; wrong since 'w/o' is read as 'without', before that declined)",
	"tyrebay/tb-job-biggest-date":      "'date of the biggest job' gives the day with the most jobs, not the date of the job with the highest total (arguable: 'biggest' is loose)",
	// seedvault (branch fresh64), first asked at main aaaa9aa: 137/380 answerable right, 220 declined, 23 wrong, 18/18 must-decline declined; three golds fixed before these were listed, eight arguable (latin_name for common_name).
	"seedvault/sv-species-per-fam":       "'how many species in each family' shows families.family_code, not the family's name family_latin",
	"seedvault/sv-species-per-fam-2":     "'number of species per family' shows families.family_code, not the family's name family_latin",
	"seedvault/sv-species-protected-fam": "'protected species in each family' shows families.family_code, not the family's name family_latin",
	"seedvault/sv-acc-per-family-2":      "'accessions per family' shows families.family_code, not the family's name family_latin",
	"seedvault/sv-j-fam-viab":            "'average viability in each family' shows families.family_code, not the family's name family_latin",
	"seedvault/sv-acc-per-family":        "'accessions for each plant family' groups by plants_sampled ('plant' read as plants_sampled), not by family",
	"seedvault/sv-wd-restoration-fam":    "'restoration withdrawals for each plant family' groups by plants_sampled, not by family",
	"seedvault/sv-acc-soil-list":         "'what soil types are recorded' lists every accession row (420) with all sixty columns, not the 6 distinct soil types",
	"seedvault/sv-acc-cleaned-on-2":      "'a cleaned_on date in May 2025' shows cleaned_on but filters collected_on",
	"seedvault/sv-packets-max":           "'which accessions in Cold Room 1 have the maximum packet count' returns MAX(packet_count), not the accessions",
	// orienteering (branch fresh66), first asked at main 6d3e381: 121/342 answerable right, 213 declined, 8 wrong, 18/18 must-decline declined; one gold fixed before these were listed.
	"orienteering/or-co-longest":      "'which course is the longest' takes LIMIT 1 where two courses tie at 12.3 km",
	"orienteering/or-co-no-black-2":   "'events without a Black course' lists every course row whose code is not Black (71 rows), not the events lacking one",
	"orienteering/or-co-events-8-2":   "'events with exactly 8 courses, with their dates' shows the date and count but not the event's name",
	"orienteering/or-res-not-ok":      "'results that do not have status ok' counts status IS NULL (0), not status <> 'ok'",
	"orienteering/or-res-most-runs-2": "'runner with the most results' takes LIMIT 1 where four runners tie",
	"orienteering/or-res-class-avg":   "'average ok time for each age class' drops the status = 'ok' filter and averages every time",
	// vegbox (branch fresh67), first asked at main 6d3e381: 105/310 answerable right, 200 declined, 5 wrong, 18/18 must-decline declined, none the gold's fault, two arguable ('delivered' as the plain verb or as delivered = 'yes').
	"vegbox/vb-del-last-week":    "'what is the last week which has deliveries' lists the 14 deliveries of the week 2025-10-20 (not even the last week, 2025-10-27), not MAX(week_date)",
	"vegbox/vb-dc-grams-per-cat": "'how many grams were delivered of each category' sums only deliveries with delivered = 'yes'; the gold sums every box (arguable: the fixture's own convention reads 'delivered' as delivered = 'yes')",
	"vegbox/vb-dc-delivery-50-2": "'the produce names and grams of the delivery with id 50' shows the box size's name, not the produce items' names",
	// quarry (branch fresh68), first asked at main 6d3e381: 92/304 answerable right, 206 declined, 6 wrong, 18/18 must-decline declined, none the gold's fault; five are a threshold in tonnes compared with a _kg column unconverted.
	// printshop (branch fresh69), first asked at main 05bf553: 133/303 answerable right, 161 declined, 9 wrong, 18/18 must-decline declined; six read 'printed' as status = 'printed'.
	"printshop/ps-stock-unused-2":  "'stocks no job was printed on' keeps only status = 'printed' jobs in the anti-join (3 stocks), not every job (Pearl Board)",
	"printshop/ps-job-items":       "'what different items have been printed' keeps only status = 'printed' jobs (5 items), not all 8",
	"printshop/ps-job-heron-orig":  "'list the jobs of Saltmarsh Choir with item and order date' shows item and ordered_on without the job id (arguable: the gold lists the job's id too)",
	"printshop/ps-inv-paid-2025":   "'how much was paid in 2025' sums invoices issued in 2025 (issued_on), not paid in 2025 (paid_on)",
	"printshop/ps-inv-pewter-2024": "'how much was invoiced for Pewter jobs issued in 2024' counts Pewter jobs ordered in 2024, not the sum of their invoices' amount",
	// toolhire (branch fresh70), first asked at main 05bf553: 145/328 answerable right, 168 declined, 15 wrong, 18/18 must-decline declined, none the gold's fault; nine show a depot by depot_name (two depots are called Mill Lane) or a tool by id where the natural code (depot_code, asset_tag) is what names the row.
	"toolhire/th-depot-supplied-by-d01": "'depots supplied by D01' lists D01 itself, not the depots whose supply_depot_id is D01 (self-reference not followed)",
	"toolhire/th-depot-no-supply":       "'depot with no supply depot' shows depot_name only, not the depot_code that names depots (two are called Mill Lane)",
	"toolhire/th-depot-no-supply-2":     "'depots without a supply depot' shows depot_name only, not depot_code",
	"toolhire/th-depot-d05-staff":       "'who works at depot D05' lists the depot row D05, not the staff whose depot it is",
	"toolhire/th-cat-most-types":        "'category with the most tool types' takes LIMIT 1 where three categories tie at three types",
	"toolhire/th-type-rate-sander-2":    "'how much per day does the Floor Sander cost to hire' sums repair_cost of damage reports per day, not the type's day_rate",
	// stainedglass (branch fresh71), first asked at main 05bf553: 130/366 answerable right, 230 declined, 6 wrong, 17/18 must-decline declined, none the gold's fault, one arguable (a month shown as YYYY-MM).
	"stainedglass/sg-win-title-alpha-last": "'which window title comes last alphabetically' orders by commissioned_on DESC (the latest commission), not by title",
	"stainedglass/sg-ws-months-2025":       "'work sessions in each month of 2025' labels the month '2025-01', the gold '01' (arguable: both name the month)",
	"stainedglass/sg-gs-colours":           "'list the colours of glass' reads glass_sheets through window_glass: 94 rows of used colours, not the 13 colours",
	"stainedglass/sg-gs-country-stock":     "'how many sheets are in stock from each country' counts glass_sheets rows per country, not SUM(sheets_in_stock)",
	"stainedglass/sg-wg-ruby-windows-2":    "'windows containing Ruby Red' filters windows.title LIKE '%Ruby Red%' (0 rows), not the windows using the Ruby Red glass sheet",
	// taxirank (branch fresh72), first asked at main ba7ccba: 107/340 answerable right, 231 declined, 2 wrong, 18/18 must-decline declined, none the gold's fault.
	"taxirank/tx-bk-tip-fare-total": "'the total of fares plus tips' gives SUM(fare) and SUM(tip) as two columns, not one sum of fare + COALESCE(tip, 0)",
	// lettings (branch fresh73), first asked at main ba7ccba: 144/304 answerable right, 149 declined, 11 wrong, 18/18 must-decline declined, none the gold's fault.
	"lettings/lt-types-most":   "'property type with the most properties' takes LIMIT 1 where two types tie at six",
	"lettings/lt-rep-quarry14": "'the repairs at 14 Quarry Row with reported and fixed dates' shows the two dates only, not each repair's id beside them (since the 'reported date' reading of reported_on, 10th session)",
	// rescueteam (branch fresh76), first asked at main 3fe4fd9: 97/299 answerable right, 200 declined, 2 wrong, 18/18 must-decline declined, none the gold's fault.
	"rescueteam/mr-base-most-vols":     "'which base has the most volunteers' keeps one of the two bases tied at six (LIMIT 1)",
	"rescueteam/mr-co-area-high-never": "'grid areas that have never had a high severity callout' lists areas with some non-high callout (severity <> 'high'), not areas with no high callout (NOT IN)",
	// yogastudio (branch fresh74), first asked at main ba7ccba: 105/303 answerable right, 190 declined, 8 wrong, 18/18 must-decline declined, none the gold's fault, three arguable (a year of bookings read on booked_on, not the class's starts_at).
	"yogastudio/ys-plan-harro-monthly-fees":   "'total monthly fee of all active Harrogate members on monthly plans' sums each plan once (plans.id IN members), not once per member: 4 plans' fees, not 1033",
	"yogastudio/ys-room-bookings-2025":        "'attended bookings for its classes in 2025' takes the year of bookings.booked_on, not classes.starts_at (arguable)",
	"yogastudio/ys-cls-advanced-titles":       "'the titles of the advanced classes' lists one title per class (100 rows), not the 2 distinct titles",
	"yogastudio/ys-cls-advanced-titles-2":     "'which classes are at advanced level' lists every advanced class row (100), not the 2 distinct titles the fixture's convention asks for",
	"yogastudio/ys-cls-months-2025-2":         "'monthly class count for 2025' reads 'monthly' as plans.billing = 'monthly' through bookings and members, one count, no grouping by month",
	"yogastudio/ys-bk-imogen-2025-2":          "'number of 2025 classes attended by Imogen Hartley' takes the year of booked_on, not the class's starts_at (arguable)",
	"yogastudio/ys-bk-members-per-title-2025": "'how many different members attended each title in 2025' takes the year of booked_on, not the class's starts_at (arguable)",
	"yogastudio/ys-x-dec-2024":                "'beginner classes in December 2024' filters booked_on in December, not classes.starts_at: bookings made in November for December classes are lost",
	// rowingclub (branch fresh75), first asked at main 3fe4fd9: 167/335 answerable right, 160 declined, 8 wrong, 18/18 must-decline declined, none the gold's fault after two DISTINCT-name golds were fixed to one row per row.
	"rowingclub/rc-rower-captains-2": "'the names of the club captains' lists every rower with Club.Name and the Captain column (36 rows), no Captain = 'yes' filter",
	// modelrail (branch fresh77), first asked at main 3fe4fd9: 117/306 answerable right, 188 declined, 1 wrong, 18/18 must-decline declined, none the gold's fault.
	"modelrail/mo-sh-operated-by": "'which layouts did Trevor Wainhouse operate, and when' reads 'operate' as the layout's builder_id (1 layout and its started_year), not showings.operator_id with the exhibition dates (3 showings)",
	// glasshouse (branch fresh79), first asked at main 6078cb0: 108/300 answerable right, 183 declined, 9 wrong, 18/18 must-decline declined, none the gold's fault.
	"glasshouse/gh-type-unused":  "'crop types with no varieties' looks for crops whose variety IS NULL (0 rows), not types with no crop (NOT IN)",
	"glasshouse/gh-crop-count-2": "'count the crop varieties' counts DISTINCT variety (11), not the crops (12: two are called Emerald)",
	// bellringers (branch fresh80), first asked at main 6078cb0: 90/302 answerable right, 203 declined, 9 wrong, 18/18 must-decline declined, none the gold's fault; six show a tower by its id where the gold shows its village (towers has no name column: church and village).
	"bellringers/br-cd-allsop-towers": "'towers at which Margaret Allsop has conducted peals' returns her home tower (ringers.tower_id) among towers with any peal, not the towers of peals with conductor_id = her (1 row, want 6)",
	// spareparts after 2026-11-28's legacy short names (pkg/prt/ord_hdr read as words): 113/330 right, 3 wrong.
	"spareparts/sp-cat-most":   "'which category has the most parts' keeps one of the categories tied at the top (LIMIT 1)",
	"spareparts/sp-cat-most-2": "'the largest category by number of parts' keeps one of the categories tied at the top (LIMIT 1)",
	// cateringhire after 2026-11-28's everyday words ("customers" for clients): 46 more right, one wrong.
	"cateringhire/ch-item-pre-2018-2": "'kit we have had since before 2018' reads 'since' as the clients' client_since date and dates the items by their hirers, not bought_year < 2018",
	// spareparts (branch fresh78), first asked at main 6078cb0: 17/330 answerable right, 313 declined, 0 wrong, 18/18 must-decline declined: nothing to list.
	// ferrytickets (branch fresh81), first asked at main 9c04bf3: 96/312 answerable right, 207 declined, 9 wrong (none the gold's fault, three arguable), 18/18 must-decline declined.
	"ferrytickets/ft-ves-big-cap":          "'vessels that carry more than 100 passengers' counts distinct ticket holders over all crossings instead of comparing capacity",
	"ferrytickets/ft-cx-per-month-2025":    "'crossings in each month of 2025' labels the months '2025-01' where the gold gives '01' (arguable: same counts)",
	"ferrytickets/ft-tk-bought-month-2025": "'tickets bought in each month of 2025' labels the months '2025-01' where the gold gives '01' (arguable: same counts)",
	"ferrytickets/ft-tk-skipper-angus":     "'how many passengers travelled on crossings skippered by Angus Drummond' counts distinct passengers, the gold counts tickets (arguable)",
	// cateringhire (branch fresh83), first asked at main 9c04bf3: 5/302 answerable right, 297 declined, 0 wrong, 18/18 must-decline declined: nothing to list.
	// potteryclass (branch fresh82), first asked at main 9c04bf3: 160/351 answerable right, 187 declined, 4 wrong, 18/18 must-decline declined.
	"potteryclass/pc-pi-heaviest":       "'the id and weight of the heaviest piece' keeps one of two pieces tied (LIMIT 1); answered once weight_grams was named by 'weight'",
	"potteryclass/pc-buddy-of-2":        "'the buddy of Yuki Tanbe' matches the misspelled name literally and finds no student (0 rows, want 1)",
	"potteryclass/pc-en-per-course-2":   "'number of enrolements per course, with the term' groups by course but shows only the term, dropping the title (three courses share each term)",
	"potteryclass/pc-en-per-student":    "'how many courses has each student enrolled on' reads 'enrolled on' as the students.enrolled_on column and groups by that date, not by student",
	"potteryclass/pc-pi-fullest-firing": "'which firing had the most pieces' keeps one of the three firings tied at the top (LIMIT 1)",
	// blooddrive (branch fresh86), first asked at main 5e82b27: 150/294 answerable right, 139 declined, 5 wrong, 18/18 must-decline declined.
	"blooddrive/bd-session-per-month-2025": "'sessions in each month of 2025' groups by 'YYYY-MM' where the gold shows the month 'MM' (arguable: same counts)",
	"blooddrive/bd-don-per-month-2024":     "'donations in each month of 2024' groups by 'YYYY-MM' where the gold shows the month 'MM' (arguable: same counts)",
	// groomingsalon (branch fresh85), first asked at main 5e82b27: 176/301 answerable right, 122 declined, 3 wrong, 18/18 must-decline declined.
	"groomingsalon/gs-ow-top-town":   "'which town has the most owners' keeps one of the two towns tied at six (LIMIT 1)",
	"groomingsalon/gs-ow-top-town-2": "'what town are most owners from' keeps one of the two towns tied at six (LIMIT 1)",
	"groomingsalon/gs-ap-avg-bill":   "'the average total charged per appointment' groups by appointment (one row each with its average and sum), not one average of the appointments' totals",
	// boardgames (branch fresh84), first asked at main 5e82b27: 154/309 answerable right, 152 declined, 3 wrong, 18/18 must-decline declined.
	"boardgames/bg-pub-top-2":         "'the publisher with the largest number of games' keeps one of the two publishers tied at four games (LIMIT 1)",
	"boardgames/bg-loan-across-years": "'lent in 2024 and returned in 2025' puts both years on LentDate (a contradiction, count 0) instead of 2025 on ReturnedDate",
	// kartingtrack (branch fresh87), first asked at main 0f81e3c: 119/300 answerable right, 171 declined, 10 wrong, 18/18 must-decline declined.
	"kartingtrack/kt-class-most":       "'which class has the most karts' keeps one of the two classes tied at five (LIMIT 1)",
	"kartingtrack/kt-class-most-2":     "'the largest kart class by number of karts' keeps one of the two classes tied at five (LIMIT 1)",
	"kartingtrack/kt-kart-38-drivers":  "'kart 38' read as Kart_ID = 38 (no such kart, 0 rows), not Kart_No = 38",
	"kartingtrack/kt-x-kart-colour-38": "'what colour is kart 38' reads Kart_ID = 38 (0 rows), not Kart_No = 38",
	"kartingtrack/kt-kart-no-wins":     "'karts that have never won a heat' drops the win (Finish_Position = 1): lists the karts that never raced",
	// stampauction (branch fresh88), first asked at main 0f81e3c: 88/270 answerable right, 181 declined, 1 wrong, 18/18 must-decline declined.
	// since the links read from column names (10th session, no declared foreign keys): 44 declined now right, these 4 wrong
	"stampauction/sa-cond-top":         "'which condition do the most stamps have' keeps one of the two conditions tied (LIMIT 1)",
	"stampauction/sa-cond-top-2":       "'the most common stamp condition' keeps one of the two conditions tied (LIMIT 1)",
	"stampauction/sa-au-sold-per":      "'how many lots were sold at each auction' counts every lot, not the lots with a buyer ('sold' not read as buyer_id IS NOT NULL)",
	"stampauction/sa-au-winter-stamps": "'which stamps were offered at the Winter Classics auction' lists each stamp once (IN), the gold one row per lot (arguable)",
	// coffeeroastery (branch fresh89), first asked at main 0f81e3c: 175/422 answerable right, 240 declined, 7 wrong, 18/18 must-decline declined.
	"coffeeroastery/cfr-roast-per-bean-all": "'beans never roasted' read as roast.roasterId IS NULL (an inner join, 0 rows) instead of a left join from bean",
	// printingpress (branch fresh91), first asked at main 3449329: 163/251 answerable right, 87 declined, 1 wrong, 18/18 must-decline declined.
	// communitygarden (branch fresh92), first asked at main 3449329: 98/258 answerable right, 159 declined, 1 wrong, 18/18 must-decline declined.
	// harbourmaster (branch fresh95), first asked at main 6be6f34: 76/268 answerable right, 188 declined, 4 wrong, 18/18 must-decline declined.
	// citybikes (branch fresh97), first asked at main 33dfec2: 160/296 answerable right, 131 declined, 5 wrong, none the gold's fault, 18/18 must-decline declined.
	"citybikes/cb2-bike-top-colour":   "'the most common bike colour' keeps one of the two colours tied at 30 (LIMIT 1)",
	"citybikes/cb2-bike-top-colour-2": "'which colour do the most bikes have' keeps one of the two colours tied at 30 (LIMIT 1)",
	"citybikes/cb2-sale-latest":       "'the bike sold most recently, and to whom' orders bikes by Received_Date and never reaches sale (Sold_Date, Buyer_Name)",
	// quizleague (branch fresh98), first asked at main 33dfec2: 126/351 answerable right, 222 declined, 3 wrong, 18/18 must-decline declined.
	"quizleague/ql-fix-per-month-2025":   "'fixtures in each month of 2025' groups by the year-month '2025-01', gold by the month '01' (arguable, same counts)",
	"quizleague/ql-fix-per-month-2025-2": "'number of fixtures per month in 2025' groups by the year-month '2025-01', gold by the month '01' (arguable, same counts)",
	"quizleague/ql-fix-march-2025":       "'list the id and date of fixtures in March 2025' drops the asked date column",
	// climbinggym (branch fresh96), first asked at main 33dfec2: 138/294 answerable right, 151 declined, 5 wrong, 18/18 must-decline declined (4 golds fixed after the first run: DISTINCT names merged the two Rosa Lindqvists, one listed a member per ascent).
	"climbinggym/cgy-wa-prow-count-2":    "'count the problems set on The Prow' counts DISTINCT problems.set_on (reads 'set' as the set_on column), not the problems",
	"climbinggym/cgy-pr-most-climbed":    "'which problem has the most ascents' keeps one of the two problems tied at 17 (LIMIT 1)",
	"climbinggym/cgy-as-never-flashed-2": "'members without a single flash' lists members with an ascent where flash = 'no' instead of members with no flash = 'yes' ascent",
	"climbinggym/cgy-as-students-2":      "'count ascents by student members' groups by is_student (yes and no) instead of counting the students' ascents (arguable)",
	// dogshow (branch fresh99), first asked at main adbf0f9: 139/284 answerable right, 140 declined, 5 wrong, 18/18 must-decline declined.
	"dogshow/dsh-breed-entries":       "'how many show entries has each breed had' counts DISTINCT shows per breed, not the entries",
	"dogshow/dsh-own-most-dogs":       "'which owner has the most dogs' keeps one of the three owners tied at three dogs (LIMIT 1)",
	"dogshow/dsh-show-fewest-entries": "'which show had the fewest entries' keeps one of the three shows tied at 22 entries (LIMIT 1)",
	// tailoring (branch fresh100), first asked at main adbf0f9: 165/272 answerable right, 105 declined, 2 wrong, 18/18 must-decline declined.
	"tailoring/tl-client-chest-order": "'list patrons and chest sizes from largest to smallest chest' shows chest_size twice and no patron name",
	"tailoring/tl-fit-order-dates-2":  "'when were the fittings for order 10' shows the dates without the fitting numbers the gold lists (arguable)",
	// pianotuning (branch fresh101), first asked at main adbf0f9: 162/288 answerable right, 115 declined, 11 wrong, 18/18 must-decline declined.
	"pianotuning/pt-tech-earliest-2":      "'who has been a technician the longest, by start year' orders tech_start_year DESC (the newest) and returns every column",
	"pianotuning/pt-piano-yamaha":         "'what models of Yamaha piano are there' answers DISTINCT models (6), gold lists one per piano incl. both U1s (7) (arguable)",
	"pianotuning/pt-visit-per-month-2025": "'visits in each month of 2025' groups by the year-month '2025-01', gold by the month '01' (arguable, same counts)",
	// icecream (branch fresh102), first asked at main 40dd521: 107/252 answerable right, 140 declined, 5 wrong, 18/18 must-decline declined.
	"icecream/ic-stf-per-parlour-2": "'number of staff per parlour, with the town' shows town and count but no parlour name (two parlours are called Harbour Scoop) (arguable)",
	// bookbinding (branch fresh103), first asked at main 40dd521: 152/267 answerable right, 110 declined, 5 wrong, 18/18 must-decline declined.
	"bookbinding/bb-bind-by-rate-2": "'show each binder's hourly rate, sorted descending' shows HourlyRate alone, without the binders' names",
	"bookbinding/bb-pat-top-city":   "'which city has the most patrons' keeps one of the four cities tied at three (LIMIT 1)",
	"bookbinding/bb-pat-top":        "'which patron has placed the most commissions' keeps one of the three patrons tied at 17 (LIMIT 1)",
	"bookbinding/bb-pat-top-2":      "'the patron with the largest number of commissions' keeps one of the three patrons tied at 17 (LIMIT 1)",
	"bookbinding/bb-cm-qty-avg-mat": "'average quantity used per commission for each material' groups by commission and material (346 rows), not by material",
	// ferriswheel (branch fresh104), first asked at main 40dd521: 94/257 answerable right, 158 declined, 5 wrong, 18/18 must-decline declined.
	"ferriswheel/fw-site-most-visits-2":    "'the site with the most visits' keeps one of the four sites tied at three visits (LIMIT 1)",
	"ferriswheel/fw-day-avg-per-ride":      "'average riders per day for each ride' groups by day and ride (1026 rows), not by ride",
	"ferriswheel/fw-tk-top-ride-takings-2": "'the ride with the highest ticket takings' ranks rides by COUNT(*) of ticket rows, not SUM(sold * bandprice)",
	"ferriswheel/fw-tk-family-sold-2025":   "'family tickets sold in 2025' reads 2025 as sold = 2025 and counts rows, not SUM(sold) over daydate in 2025",
	// lifeboats (branch fresh105), first asked at main 74fb748: 136/266 answerable right, 129 declined, 1 wrong, 18/18 must-decline declined.
	"lifeboats/lb2-cls-top": "'which class has the most boats' keeps one of the two classes tied at four boats (LIMIT 1)",
	// honeyfarm (branch fresh107), first asked at main 74fb748: 133/286 answerable right, 148 declined, 5 wrong, 18/18 must-decline declined.
	"honeyfarm/hf-harvest-top-hive-2": "'the hive with the highest total harvest' ranks hives by COUNT(*) of harvests, not SUM(kilograms)",
	"honeyfarm/hf-shop-town-most":     "'which town has the most shops' keeps one of the two towns tied at three shops (LIMIT 1)",
	"honeyfarm/hf-del-per-shop-2":     "'number of deliveries per shop, with the town' shows the count and town without the shop's name",
	// choirfest (branch fresh106), first asked at main 74fb748: 140/257 answerable right, 110 declined, 7 wrong, 18/18 must-decline declined.
	"choirfest/cfz-vt-code-male-2":     "'the type code for male voice choirs' returns the code once per male voice choir (2 rows), not once",
	"choirfest/cfz-si-common-last":     "'most common last name' keeps one of three tied surnames (LIMIT 1)",
	"choirfest/cfz-pr-per-round":       "'performances in each round' shows round id and name but not festivalYear, so the three Finals cannot be told apart",
	"choirfest/cfz-pr-per-round-2":     "'per round, with the festival year' shows count and festivalYear but drops roundName",
	"choirfest/cfz-pr-round-best":      "'top score in each round' shows round id and name but not festivalYear",
	"choirfest/cfz-pr-staldric-rounds": "'rounds sung in, with year and score' drops roundName",
	// watchrepair (branch fresh108), first asked at main 495ecb2: 162/291 answerable right, 129 declined, 0 wrong, 18/18 must-decline declined; listed later:
	"watchrepair/wr-job-uncollected-owners": "'owners with a job not collected' lists each owner (11 rows); the gold's DISTINCT first and last name merges the two owners who share a name (10)",
	// salvageyard (branch fresh110), first asked at main 495ecb2: 158/303 answerable right, 135 declined, 10 wrong, 18/18 must-decline declined.
	"salvageyard/sy-veh-oldest-2":          "'the oldest registered vehicles' takes the earliest arrived_on, not the lowest reg_year",
	"salvageyard/sy-veh-before-2008":       "'registered before 2008' compares arrived_on, not reg_year (0 rows)",
	"salvageyard/sy-veh-year-between":      "'registered between 2010 and 2015' counts by arrived_on, not reg_year",
	"salvageyard/sy-veh-2024-per-month":    "'in each month of 2024' shows the month as 'YYYY-MM', gold '01'..'12' (arguable)",
	"salvageyard/sy-part-2025-per-month":   "'in each month of 2025' shows the month as 'YYYY-MM', gold '01'..'12' (arguable)",
	"salvageyard/sy-part-2025-per-month-2": "'monthly count for 2025' shows the month as 'YYYY-MM', gold '01'..'12' (arguable)",
	"salvageyard/sy-wk-team-size":          "'workers each foreman has' shows foreman_no, not the foreman's name",
	"salvageyard/sy-sale-avg-by-part":      "'average sale price of each part' groups by pulled part (185 rows), not part name (12)",
	// theatreschool (branch fresh109), first asked at main 971e091: 185/284 answerable right, 94 declined, 6 wrong (one must-decline answered), 17/18 must-decline declined.
	"theatreschool/tsc-disc-most-classes-2": "'the discipline with the largest number of classes' keeps one of the two disciplines tied at 12 (LIMIT 1)",
	"theatreschool/tsc-class-dearest":       "'the class with the highest fee' keeps one of the two classes tied at 160.00 (LIMIT 1)",
	"theatreschool/tsc-class-dearest-2":     "'the most expensive class' keeps one of the two classes tied at 160.00 (LIMIT 1)",
	"theatreschool/tsc-class-fee-over-100":  "'classes over 100 pounds, with their fee' shows Fee only, drops the class title",
	"theatreschool/tsc-class-biggest":       "'the class with the most enrolments' keeps one of four classes tied (LIMIT 1)",
	// puppetry (branch fresh111), first asked at main 30d6666: 158/265 answerable right, 100 declined, 7 wrong, 18/18 must-decline declined.
	"puppetry/pup-type-list-2":     "'what types of puppet are recorded' lists only the 5 types some puppet has, not all 8 in Puppet_Type (arguable)",
	"puppetry/pup-type-most":       "'the puppet type with the most puppets' keeps one of the two types tied at four (LIMIT 1)",
	"puppetry/pup-type-most-2":     "'the type the largest number of puppets belong to' keeps one of the two types tied at four (LIMIT 1)",
	"puppetry/pup-top-maker":       "'the maker who built the most puppets' keeps one of three makers tied at four (LIMIT 1)",
	"puppetry/pup-venue-town-most": "'the town with the most venues' keeps one of three towns tied at two (LIMIT 1)",
	// foraging (branch fresh112), first asked at main 30d6666: 132/298 answerable right, 165 declined, 1 wrong, 18/18 must-decline declined.
	// bowlsclub (branch fresh113), first asked at main 30d6666: 8/228 answerable right, 220 declined, 0 wrong, 18/18 must-decline declined; listed later (after short identifiers were read):
	"bowlsclub/bwc-team-biggest": "'which team has the most members' keeps one of three teams tied (LIMIT 1)",
	// lockkeeping (branch fresh114), first asked at main 7430d04: 151/262 answerable right, 107 declined, 4 wrong, 18/18 must-decline declined.
	"lockkeeping/lk-boat-kettle-locks-2": "'the distinct locks used by Brass Kettle' lists 12 lock rows (both Hemble Locks); the gold's DISTINCT lockName gives 11 (arguable: the gold's own one-row-per-lock convention favours the planner)",
	"lockkeeping/lk-pass-per-month-2025": "'passages in each month of 2025' groups by '2025-01' year-month text, the gold by month number '01' (arguable, same counts)",
	// vintagecars (branch fresh116), first asked at main 7430d04: 127/266 answerable right, 136 declined, 3 wrong (all ties cut by LIMIT 1), 18/18 must-decline declined.
	"vintagecars/vc-mq-top":              "'which marque has the most cars' keeps one of the two marques tied at four (LIMIT 1)",
	"vintagecars/vc-mem-top-region":      "'which region has the most members' keeps one of the four regions tied at five (LIMIT 1)",
	"vintagecars/vc-car-smallest-engine": "'which car has the smallest engine' keeps one of the two Austin Sevens tied at 747 cc (LIMIT 1)",
	// marathon (branch fresh115), first asked at main 7430d04: 100/226 answerable right, 123 declined, 3 wrong, none the gold's fault, 18/18 must-decline declined.
	// almshouses (branch fresh119), first asked at main a1a5dc6: 80/220 answerable right, 137 declined, 3 wrong, none the gold's fault, 18/18 must-decline declined.
	"almshouses/alm-re-first-in": "'which resident moved in first, and when' shows the date twice and drops the resident's name",
	"almshouses/alm-pay-part":    "'made a payment of exactly 200 pounds' compares each resident's SUM of payments with 200, not a single payment",
	// cheesemakers (branch fresh117), first asked at main a1a5dc6: 121/209 answerable right, 83 declined, 5 wrong, none provably the gold's fault (one arguable), 18/18 must-decline declined.
	"cheesemakers/chz-milk-goat":    "'which cheeses are made from goat milk' lists batches.milk_litres of goat cheese batches, not the cheese names ('milk' read as the litres column)",
	"cheesemakers/chz-milk-oldbeck": "'what milk is Old Beck made from' lists the litres of milk of its batches, not the milk type",
	"cheesemakers/chz-batch-few":    "'cheeses with fewer than ten batches' also counts Quarry Smoked, never made (NOT IN over HAVING >= 10; arguable, zero is fewer than ten)",
	"cheesemakers/chz-batch-few-2":  "'cheeses made fewer than 10 times' also counts Quarry Smoked, never made (arguable, as chz-batch-few)",
	// signalbox (branch fresh118), first asked at main a1a5dc6: 65/234 answerable right, 166 declined, 3 wrong, none the gold's fault (two DISTINCT-name golds fixed before the final run), 18/18 must-decline declined.
	"signalbox/sbx-shift-per-month-2026": "'shifts started in each month of 2026' shows the month as '2026-01', the gold as '01' (arguable: the same months)",
	"signalbox/sbx-mv-per-month-2026":    "'movements in each month of 2026' shows the month as '2026-01', the gold as '01' (arguable: the same months)",
}

// heldOutWrong is how many wrong answers each held-out fixture may have:
// the held-out fixtures' questions are never named here or in the test's
// output, so they are counted, not listed. A count above the ceiling fails
// the test, and so does one below it (lower the ceiling: it only falls).
var heldOutWrong = map[string]int{
	fixtures.Hotels: 0,
	fixtures.League: 1, // 2026-11-27, third session (3 earlier that day, 4 on 2026-11-26, 6 that morning, 7 at 7a351cd)
}

// raceFixtures are the fixtures TestFixtures asks under the race detector,
// which makes each question some ten times slower: the sample over
// streamable HTTP, the catalogs with edits, the held-out sets and several
// naming styles. The race run looks for data races in the path every
// question takes; what each fixture answers is checked by the run without
// -race that make test also does.
var raceFixtures = map[string]bool{fixtures.Sample: true, fixtures.BikeShop: true, fixtures.Parcels: true,
	fixtures.Hotels: true, fixtures.League: true, fixtures.Allotments: true, fixtures.Rescue: true,
	fixtures.Campus: true, fixtures.Theatre: true, fixtures.RecordLabel: true}

// TestFixtures runs every fixture end to end through the real MCP servers and
// the orchestrator with the built-in generator, and fails on any wrong answer
// and on a correct rate below the fixture's floor. The sample database's
// database-mcp and metadata-mcp are reached over streamable HTTP, the other
// fixtures' in-process. With -short each fixture is asked once, in-process,
// with its untouched catalog.
func TestFixtures(t *testing.T) {
	var reports []*Report
	if raceDetector {
		t.Logf("under -race only %v are asked (every transport, the edits, the held-out sets and several naming styles); "+
			"make test asks every fixture without -race", slices.Sorted(maps.Keys(raceFixtures)))
	}
	for _, name := range fixtures.Names() {
		if raceDetector && !raceFixtures[name] {
			continue
		}
		cat, ok := catalogOnce(name)
		if !ok {
			t.Logf("%s: not evaluated end to end: no catalog drafter on this branch yet (its gold SQL is checked by TestGold)", name)
			continue
		}
		transport := InProcess
		if name == fixtures.Sample && !testing.Short() {
			transport = StreamableHTTP
		}
		modes := []bool{false}
		if fixtures.EditsPath(name) != "" && !testing.Short() {
			modes = append(modes, true)
		}
		for _, edited := range modes {
			rep, err := Run(context.Background(), name, Options{Dir: t.TempDir(), Catalog: cat, Edited: edited, Transport: transport})
			if err != nil {
				t.Fatalf("%s (edited %v): %v", name, edited, err)
			}
			reports = append(reports, rep)
			checkReport(t, rep)
		}
	}
	var table, details strings.Builder
	if err := WriteTable(&table, reports); err != nil {
		t.Fatal(err)
	}
	if err := WriteDetails(&details, reports); err != nil {
		t.Fatal(err)
	}
	t.Logf("evaluation report:\n%s\n%s", table.String(), details.String())
}

// catalogs memoises each fixture's catalog for the test process: a
// fixture builds to the same data every time, so its draft is the same,
// and TestFixtures and TestNo5xx need not draft it twice.
var catalogs sync.Map // fixture name → []byte

// catalogOnce is CatalogFor with its result kept for the next caller.
func catalogOnce(name string) (CatalogFunc, bool) {
	cat, ok := CatalogFor(name)
	if !ok {
		return nil, false
	}
	return func(ctx context.Context, dbPath string) ([]byte, error) {
		if b, ok := catalogs.Load(name); ok {
			return b.([]byte), nil
		}
		b, err := cat(ctx, dbPath)
		if err == nil {
			catalogs.Store(name, b)
		}
		return b, err
	}, true
}

func checkReport(t testing.TB, rep *Report) {
	t.Helper()
	label := fmt.Sprintf("%s (%s)", rep.Fixture, catalogLabel(rep))
	// No question may get a 5xx, or a 4xx that does not say what was wrong
	// (TestNo5xx asks the fuzzed ones).
	for i, res := range rep.Results {
		fault := res.Fault()
		switch {
		case fault == "":
		case fixtures.HeldOut(rep.Fixture):
			t.Errorf("%s (held out): question %d of the run (not shown): %s", label, i+1, fault)
		default:
			t.Errorf("%s: %s %q: %s", label, res.Question.ID, res.Question.Text, fault)
		}
	}
	c := rep.Counts()
	f := floors[rep.Fixture]
	min := f.untouched
	if rep.Edited {
		min = f.edited
	}
	if c.CorrectRate() < min {
		t.Errorf("%s: %d of %d answerable questions correct (%.0f%%), below the floor of %.0f%%",
			label, c.Correct, c.Answerable, 100*c.CorrectRate(), 100*min)
	}
	if fixtures.HeldOut(rep.Fixture) {
		ceiling, wrong := heldOutWrong[rep.Fixture], c.Overall().Wrong
		switch {
		case wrong > ceiling:
			t.Errorf("%s (held out): %d wrong answers, more than the %d allowed (its questions are not shown: "+
				"fix the planner's general rules, never read the held-out fixture)", label, wrong, ceiling)
		case wrong < ceiling && !rep.Edited:
			t.Errorf("%s (held out): %d wrong answers, fewer than the %d allowed: lower heldOutWrong to %d", label, wrong, ceiling, wrong)
		}
		return
	}
	for _, res := range rep.Results {
		key := rep.Fixture + "/" + res.Question.ID
		reason, known := knownWrong[key]
		switch {
		case res.Outcome == Wrong && known:
			t.Logf("%s: known wrong answer %s (%s): %s", label, res.Question.ID, reason, res.Detail)
		case res.Outcome == Wrong:
			t.Errorf("%s: WRONG answer to %s %q:\n  sql: %s\n  %s", label, res.Question.ID, res.Question.Text, oneLine(res.SQL), res.Detail)
		case known && !rep.Edited:
			t.Errorf("%s: %s is listed in knownWrong but was %s: remove it from the list", label, res.Question.ID, res.Outcome)
		}
	}
}
