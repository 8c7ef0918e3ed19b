-- What a seat's next prompt compares against (issue 35): the presenter's memo of the seat's own
-- view when it was last prompted (its hit points, its cards, who stood near it), so that the
-- prompt opens with what changed for it since. NULL: the seat has not been prompted in this game
-- yet (its first prompt carries the ruleset's help). Read only when prompts are composed.
ALTER TABLE seats ADD COLUMN prompt_memo TEXT;
