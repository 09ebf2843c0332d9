-- A picture's smaller sizes are made after the upload has been answered (a queue job,
-- worker/content/media-sizes-job.ts): a phone's 4032×3024 photo took 29 s to save when its twelve
-- encodes came first. `widths` are the sizes it will have; until they all exist, each size's URL
-- serves the picture itself (never a broken srcset). `sizes_state`: 'pending' (queued or being
-- made), 'done', 'failed' (the last attempt failed: the desk shows `sizes_error` and a retry).
-- Pictures stored before this were made whole at upload: done.
ALTER TABLE media ADD COLUMN sizes_state TEXT NOT NULL DEFAULT 'done'
  CHECK (sizes_state IN ('pending', 'done', 'failed'));
ALTER TABLE media ADD COLUMN sizes_error TEXT;
-- when the sizes were last asked for: the five-minute cron asks again for those left pending
ALTER TABLE media ADD COLUMN sizes_at TEXT;
