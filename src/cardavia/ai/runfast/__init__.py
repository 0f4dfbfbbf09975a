"""The Run Fast AI: hand planner (:mod:`.plan`), basic policy (:mod:`.basic`), search (:mod:`.search`)."""
