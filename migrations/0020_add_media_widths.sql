-- The widths made of each picture at upload (worker/content/media.ts): a JSON array, e.g.
-- [480,960,1600], each stored as <hash>-<width>.avif and .webp beside the picture. NULL: a
-- picture stored before sizes were made, served as it is.
ALTER TABLE media ADD COLUMN widths TEXT;
