"""The lab: benchmarks and evaluations of the rules engine, the synthetic table and the card
reader (``elfer bench ...``). Nothing in the runtime imports this package."""
