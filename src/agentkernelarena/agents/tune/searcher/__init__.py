"""The `tune` agent's program: a search over a Triton kernel's launch parameters.

Standard library only, relative imports only: the adapter copies this package next to the
trial's workspace and runs it there, inside the sandbox, where the arena's own code is hidden.
It measures with the workspace's `./check` and nothing else. Outside the arena:

    python -m agentkernelarena.agents.tune.searcher --workspace ws/ --max-checks 20
"""
