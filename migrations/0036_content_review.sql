-- Writers' review (issue 58, docs/content.md "Writers and review"): who created each item, and
-- the review of a Writer's draft. An item stays a draft (status) while in review: the pages
-- never show it and the cron never publishes it.
--   author_id:   the account that created the item (auth_users.id, or a hosted GoTrue's user
--                id); NULL for the items made before, the agency's own.
--   review_at:   when its draft was sent for review; NULL when it is not waiting for review.
--   review_note: the editor's note when they sent it back; cleared when it is sent again.
ALTER TABLE content_items ADD COLUMN author_id TEXT;
ALTER TABLE content_items ADD COLUMN review_at TEXT;
ALTER TABLE content_items ADD COLUMN review_note TEXT;

-- The review queue, oldest first, read by index (only the waiting items are in it).
CREATE INDEX content_items_review ON content_items (review_at) WHERE review_at IS NOT NULL;
-- A Writer's own drafts of a kind.
CREATE INDEX content_items_by_author ON content_items (author_id, kind)
WHERE author_id IS NOT NULL;
