-- Whether commits mark what they change for the lake: 'off' in a warehouse no export or verify has
-- read yet (Warehouse.startChangeMarks); a file from before the setting marks.
SELECT coalesce((SELECT value FROM _glacier_meta WHERE key = 'change_marks'), 'on') AS marks;
