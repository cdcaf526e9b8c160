"""`python -m agentkernelarena ...` is `aka ...` (for machines where the script is not on PATH)."""

from agentkernelarena.cli import main

main()
