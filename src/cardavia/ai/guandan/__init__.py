"""The Guandan AI: hand planner (:mod:`.plan`), basic policy (:mod:`.basic`), search (:mod:`.search`)."""
