"""mini-swe-agent's command line: `mini -m MODEL -t PROMPT -y --exit-immediately -o traj.json`.

Facts from AGENT-CLIS.md: MSWEA_CONFIGURED=true skips its first-run setup prompt; litellm must
not fetch its price map from the internet (LITELLM_LOCAL_MODEL_COST_MAP); a model litellm does not
know breaks its cost tracking unless MSWEA_COST_TRACKING=ignore_errors (the harness then prices
the tokens). The trajectory goes to the iteration's output folder, which the sandbox makes
writable; the workspace stays free of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from agentkernelarena.agents.process import Command
from agentkernelarena.workspace.sandbox import install_paths

TRAJECTORY = "traj.json"


@dataclass
class MiniSweAgentSettings:
    model: str | None = None  # a litellm name: openai/gpt-5-mini, anthropic/claude-sonnet-4-5
    executable: str | None = None
    base_url: str | None = None  # an OpenAI-compatible endpoint (OPENAI_API_BASE)
    step_limit: int = 100
    cost_limit: float = 0.0  # USD; 0 = no limit (the arena's time limit still holds)
    config: list[str] = field(default_factory=list)  # more `-c` files or key=value pairs
    extra_args: list[str] = field(default_factory=list)
    price_in: float | None = None
    price_out: float | None = None
    price_cached: float | None = None


def build_command(settings: MiniSweAgentSettings, executable: str, prompt: str,
                  out_dir: Path) -> Command:
    argv = [executable, "-m", settings.model or "", "-t", prompt, "-y", "--exit-immediately",
            "-o", str(out_dir / TRAJECTORY), "-l", str(settings.cost_limit),
            "-c", "mini.yaml", "-c", f"agent.step_limit={settings.step_limit}"]
    for extra in settings.config:
        argv += ["-c", extra]
    argv += settings.extra_args
    env = {"MSWEA_CONFIGURED": "true", "LITELLM_LOCAL_MODEL_COST_MAP": "True",
           "MSWEA_COST_TRACKING": "ignore_errors"}
    if settings.base_url:
        env["OPENAI_API_BASE"] = settings.base_url
    return Command(argv=argv, env=env, ro_paths=install_paths(executable), rw_paths=[out_dir],
                   transcript_name="console.log")
