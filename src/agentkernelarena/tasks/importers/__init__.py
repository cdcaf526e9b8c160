"""Importers: other benchmarks' problem formats turned into arena task folders."""

from agentkernelarena.tasks.importers.kernelbench import ImportReport, import_kernelbench

__all__ = ["ImportReport", "import_kernelbench"]
