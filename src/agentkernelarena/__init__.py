"""AgentKernelArena: measure AI coding agents on GPU kernel optimization."""

__version__ = "0.1.0"
