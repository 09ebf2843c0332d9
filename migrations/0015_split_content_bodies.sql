-- An article's Markdown and HTML in columns of their own, out of its texts' JSON: the lists and
-- the cache's reads then never parse the long texts (bench: an article page's miss read every
-- article's whole body to list three related ones).
ALTER TABLE content_texts ADD COLUMN body TEXT;
ALTER TABLE content_texts ADD COLUMN html TEXT;
UPDATE content_texts
SET body = json_extract(fields, '$.body'),
    html = json_extract(fields, '$.html'),
    fields = json_remove(fields, '$.body', '$.html')
WHERE json_type(fields, '$.body') IS NOT NULL;
