-- The site's content, edited in the desk (README: "Content"): articles, case studies,
-- testimonials, plans and questions, each with its texts in the six languages, every save kept
-- as a revision, and the pictures the desk uploaded (the files themselves are in R2).

-- One piece of content. `fields` holds what no language changes (JSON: an article's category
-- and cover, a plan's price); `version` goes up with every save (a save names the version it
-- was made from: an older one is refused, nothing lost). A scheduled item goes live at
-- `publish_at` (the cron); `published_at` is when it first went live (an article's date).
CREATE TABLE content_items (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('article', 'case', 'testimonial', 'plan', 'faq')),
  slug TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft', 'scheduled', 'published', 'unpublished')),
  publish_at TEXT,
  published_at TEXT,
  position INTEGER NOT NULL DEFAULT 0,
  fields TEXT NOT NULL DEFAULT '{}',
  version INTEGER NOT NULL DEFAULT 1,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_by TEXT NOT NULL DEFAULT '',
  UNIQUE (kind, slug)
);
CREATE INDEX content_items_live ON content_items (kind, status, position);
CREATE INDEX content_items_due ON content_items (status, publish_at);

-- An item's texts in one language (JSON: an article's title, excerpt, Markdown body and the
-- HTML made from it on save). A language without a row is one the item does not exist in.
-- `source_at`: the English text's updated_at this translation was made from; older than the
-- English text's updated_at = stale.
CREATE TABLE content_texts (
  item_id INTEGER NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar', 'es', 'fr', 'de', 'pt')),
  fields TEXT NOT NULL,
  source_at TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (item_id, lang)
);

-- Every save: the whole item (its fields, status and every language's texts) as it was after
-- it, who made it and when. Any of them can be restored (itself a new save).
CREATE TABLE content_revisions (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  action TEXT NOT NULL,
  snapshot TEXT NOT NULL,
  author TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX content_revisions_by_item ON content_revisions (item_id, id);

-- Pictures uploaded in the desk, named by their content's hash (served immutable from
-- /media/<name>), with the size a page reserves for them before they load.
CREATE TABLE media (
  name TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  uploaded_by TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- What each kind of content has been changed to: a page that shows a kind is cached under the
-- kind's generation (worker/content/generations.ts), so a change makes every copy of every page
-- that shows it, in every language and data centre, a miss.
CREATE TABLE content_generations (
  tag TEXT PRIMARY KEY,
  generation INTEGER NOT NULL DEFAULT 0,
  changed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A save names the version it was made from and sets the next one: a save over someone else's
-- newer save aborts its whole batch (the desk answers 409, nothing of either save lost).
CREATE TRIGGER content_items_one_version_at_a_time
BEFORE UPDATE OF version ON content_items
WHEN NEW.version != OLD.version + 1
BEGIN
  SELECT RAISE(ABORT, 'content: stale version');
END;
