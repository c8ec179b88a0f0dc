"""Batch play: many games to their end with the compiled engine, each decision answered by a
house's policy from ``gotsim.players`` — ``simulate`` and its frames (``simulate``), play from a
position (``simulate.play_from_position``), the compiled loops (``runner``) and tournaments
between policies (``tournament``)."""
