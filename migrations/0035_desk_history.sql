-- The desk's history (/desk/history, docs/desk.md "History"): desk_audit read newest first, a
-- page at a time from a (created_at, id) cursor, whole or by person, by action, or both. Each
-- filter reads one of these indexes in order (id is the rowid, which ends every index entry), so
-- a page costs the same at any size of the log; the whole log's order is desk_audit_by_time
-- (migrations/0011). A date range is a range of created_at inside each.
CREATE INDEX desk_audit_by_actor ON desk_audit (actor_id, created_at);
CREATE INDEX desk_audit_by_action ON desk_audit (action, created_at);
CREATE INDEX desk_audit_by_actor_action ON desk_audit (actor_id, action, created_at);
