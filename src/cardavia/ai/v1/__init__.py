"""``expert_v1``: the expert as it was before issue 15, frozen so later versions are measured
against it.

Everything its decisions depend on (the anytime search loop, card tracking, the rollout
rules, each game's planner, ``basic`` policy and search) is a copy in this package, so a
change to the shared AI modules cannot change it. Only the rules engine, the reason
texts and the concrete card choice (``concretize``, a rules function) are shared.
Do not edit these modules except to keep them running against a changed engine API.
"""
