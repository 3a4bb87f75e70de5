#!/usr/bin/env python3
"""Writes a small sglang-shaped program around the three seed records, so that
`errdex check` can be tested on them and the program itself can be run.

Each seed's sourceCode is placed at its exact lines and path (so a scan gives
back the seed's record id); around it, the code a launch goes through:
launch_server -> prepare_server_args (argparse) -> ServerArgs.__post_init__ ->
the moe runner resolver (seed 001) -> _handle_a2a_moe (seed 000); then
load_model -> the fp8 MoE method -> _require_fp4_dtype (seed 003).

Two styles of flags (--style):
  argparse   ServerArgs.add_cli_args calls parser.add_argument for each flag
  dataclass  the flags are generated from ServerArgs' fields by a walker
             (Literal[...] fields give choices, bool fields store_true)

What check cannot know is kept outside the program's view: the GPU capability is
read from a file named by FAKE_GPU_CAP_FILE, the model's config from a JSON file
next to --model-path, torch is not installed (the fp8 path imports it lazily).

usage: seed_tree.py SEEDS_DIR OUT_DIR --style argparse|dataclass
"""
import argparse
import json
import os
import sys


def seed(seeds_dir, prefix):
    for name in os.listdir(seeds_dir):
        if name.startswith(prefix):
            with open(os.path.join(seeds_dir, name)) as f:
                return json.loads(f.read())["record"]
    raise SystemExit("no seed " + prefix)


def place(header, rec, footer):
    """header lines, blank lines down to the window, the window, then footer."""
    lines = header.rstrip("\n").split("\n")
    start = rec["sourceCodeStart"]
    if len(lines) >= start:
        raise SystemExit("header too long for %s (%d lines, window at %d)" % (rec["filePath"], len(lines), start))
    # the header's last lines must end right before the window: pad in the middle
    head, tail = lines[:-PIN[rec["id"]]] if PIN[rec["id"]] else lines, lines[-PIN[rec["id"]]:] if PIN[rec["id"]] else []
    out = head + [""] * (start - 1 - len(head) - len(tail)) + tail
    out += rec["sourceCode"].split("\n")
    out += footer.rstrip("\n").split("\n")
    return "\n".join(out) + "\n"


# How many of the header's last lines must stay right above the window (they open it).
PIN = {}

UTILS = '''import os
import pathlib


def _gpu_capability():
    """The GPU's compute capability, as the driver reports it (here: a file)."""
    path = os.environ.get("FAKE_GPU_CAP_FILE", "/nonexistent/gpu-capability")
    try:
        return int(pathlib.Path(path).read_text().strip())
    except OSError:
        return 0


def is_sm100_supported():
    return _gpu_capability() in (100, 103)


def is_npu():
    return False


def is_hip():
    return False


def is_gfx95_supported():
    return False


def mxfp8_block_convert_required():
    return False


def get_bool_env_var(name, default="false"):
    value = os.getenv(name, default)
    return value.lower() in ("true", "1")


def with_phase(config, phase, backend=None):
    return (config, phase, backend)
'''

ENVIRON = '''import os


class EnvBool:
    def __init__(self, name, default=False):
        self.name = name
        self.default = default

    def get(self):
        value = os.environ.get(self.name)
        return self.default if value is None else value.lower() in ("1", "true")


class Envs:
    SGLANG_USE_AITER = EnvBool("SGLANG_USE_AITER")


envs = Envs()
'''

LAUNCH = '''import sys

from sglang.srt.model_loader import load_model
from sglang.srt.server_args import prepare_server_args


def main(argv):
    server_args = prepare_server_args(argv)
    load_model(server_args)
    print("server ready")


def main_cli():
    main(sys.argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
'''

MODEL_LOADER = '''import json
import os


def load_model_config(model_path):
    """The model's config.json (a directory or a file next to --model-path)."""
    path = os.path.join(model_path or ".", "config.json")
    with open(path) as f:
        return json.load(f)


def load_model(server_args):
    if server_args.quantization == "fp8":
        from sglang.srt.layers.quantization.fp8 import Fp8MoEMethod  # needs torch

        config = load_model_config(server_args.model_path)
        method = Fp8MoEMethod(config)
        method.process_weights_after_loading(None)
'''

FP8_HEADER = '''import logging

from sglang.srt.environ import envs
from sglang.srt.utils import get_bool_env_var, is_gfx95_supported, is_hip, mxfp8_block_convert_required

import torch

_is_hip = is_hip()
'''

FP8_FOOTER = '''

class Fp8MoEMethod:
    def __init__(self, model_config):
        self.model_config = model_config

    def _is_deepseek_v4_fp4(self):
        return self.model_config.get("model_type") == "deepseek_v4" and self.model_config.get("expert_dtype") == "fp4"

    def process_weights_after_loading(self, layer):
        if self._is_deepseek_v4_fp4():
            _require_fp4_dtype()
        return layer
'''

OVERRIDES_HEADER = '''from sglang.srt.utils import is_gfx95_supported, is_hip, is_npu, is_sm100_supported


def resolve_moe_runner_backend(view):
'''

OVERRIDES_FOOTER = '''        if moe_runner_backend == "auto":
            moe_runner_backend = mxfp8_default
        elif moe_runner_backend not in allowed:
            raise ValueError(f"--quantization mxfp8 supports --moe-runner-backend {allowed}")
    return moe_runner_backend
'''

SERVER_ARGS_COMMON = '''import argparse
import dataclasses
import logging
from typing import Literal, Optional

from sglang.srt.arg_groups.overrides import resolve_moe_runner_backend
from sglang.srt.utils import with_phase

logger = logging.getLogger(__name__)

QUANTIZATION_CHOICES = ["fp8", "nvfp4_online", "mxfp8", "awq"]
MOE_RUNNER_BACKEND_CHOICES = ["auto", "triton", "flashinfer_trtllm", "flashinfer_trtllm_routed", "flashinfer_cutedsl", "flashinfer_cutlass"]
MXFP8_MOE_RUNNER_BACKEND_CHOICES = ["flashinfer_trtllm", "cutlass"]
MOE_A2A_BACKEND_CHOICES = ["none", "deepep", "mooncake"]
DEEPEP_MODE_CHOICES = ["auto", "normal", "low_latency"]


class Phase:
    DECODE = "decode"
    PREFILL = "prefill"


class Backend:
    DISABLED = "disabled"
'''

FIELDS_ARGPARSE = '''

@dataclasses.dataclass
class ServerArgs:
    model_path: Optional[str] = None
    tp_size: int = 1
    quantization: Optional[str] = None
    moe_runner_backend: str = "auto"
    moe_a2a_backend: str = "none"
    deepep_mode: str = "auto"
    enable_waterfill: bool = False
    cuda_graph_config: Optional[str] = None
'''

FIELDS_DATACLASS = '''

@dataclasses.dataclass
class ServerArgs:
    model_path: Optional[str] = None
    tp_size: int = 1
    quantization: Optional[Literal["fp8", "nvfp4_online", "mxfp8", "awq"]] = None
    moe_runner_backend: Literal["auto", "triton", "flashinfer_trtllm", "flashinfer_trtllm_routed", "flashinfer_cutedsl", "flashinfer_cutlass"] = "auto"
    moe_a2a_backend: Literal["none", "deepep", "mooncake"] = "none"
    deepep_mode: Literal["auto", "normal", "low_latency"] = "auto"
    enable_waterfill: bool = False
    cuda_graph_config: Optional[str] = None
'''

METHODS = '''
    def __post_init__(self):
        self.moe_runner_backend = resolve_moe_runner_backend(self._view())
        self._handle_a2a_moe(self._view())

    def _view(self):
        return self

    def _declare(self, handler, **overrides):
        for name, value in overrides.items():
            setattr(self, name, value)
'''

ADD_CLI_ARGPARSE = '''
    @staticmethod
    def add_cli_args(parser):
        parser.add_argument("--model-path", type=str, default=ServerArgs.model_path)
        parser.add_argument("--tp-size", type=int, default=ServerArgs.tp_size)
        parser.add_argument("--quantization", type=str, choices=QUANTIZATION_CHOICES, default=ServerArgs.quantization)
        parser.add_argument("--moe-runner-backend", type=str, choices=MOE_RUNNER_BACKEND_CHOICES, default=ServerArgs.moe_runner_backend)
        parser.add_argument("--moe-a2a-backend", type=str, choices=MOE_A2A_BACKEND_CHOICES, default=ServerArgs.moe_a2a_backend)
        parser.add_argument("--deepep-mode", type=str, choices=DEEPEP_MODE_CHOICES, default=ServerArgs.deepep_mode)
        parser.add_argument("--enable-waterfill", action="store_true")
'''

ADD_CLI_DATACLASS = '''
    @staticmethod
    def add_cli_args(parser):
        hints = typing.get_type_hints(ServerArgs)
        for field in dataclasses.fields(ServerArgs):
            if field.name == "cuda_graph_config":
                continue
            hint = hints[field.name]
            kwargs = {"default": field.default}
            if hint is bool:
                kwargs["action"] = "store_true"
            else:
                args = typing.get_args(hint)
                literal = [a for a in args if typing.get_origin(a) is Literal]
                if typing.get_origin(hint) is Literal:
                    kwargs["choices"] = list(args)
                elif literal:
                    kwargs["choices"] = list(typing.get_args(literal[0]))
                kwargs["type"] = int if hint is int else str
            parser.add_argument(f"--{field.name.replace('_', '-')}", **kwargs)
'''

A2A_HEADER = '''
    def _handle_a2a_moe(self, cfg):
        a2a_backend = cfg.moe_a2a_backend
'''

SERVER_ARGS_FOOTER = '''                )


def prepare_server_args(argv):
    parser = argparse.ArgumentParser(prog="sglang.launch_server")
    ServerArgs.add_cli_args(parser)
    args = parser.parse_args(argv)
    return ServerArgs(**vars(args))
'''


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seeds")
    ap.add_argument("out")
    ap.add_argument("--style", choices=["argparse", "dataclass"], required=True)
    a = ap.parse_args()
    s000, s001, s003 = seed(a.seeds, "000_"), seed(a.seeds, "001_"), seed(a.seeds, "003_")
    root = a.out
    for pkg in ["python/sglang", "python/sglang/srt", "python/sglang/srt/arg_groups", "python/sglang/srt/layers",
                "python/sglang/srt/layers/quantization"]:
        write(root, pkg + "/__init__.py", "")
    write(root, "python/sglang/launch_server.py", LAUNCH)
    write(root, "python/sglang/srt/utils.py", UTILS)
    write(root, "python/sglang/srt/environ.py", ENVIRON)
    write(root, "python/sglang/srt/model_loader.py", MODEL_LOADER)
    write(root, "pyproject.toml", '[project]\nname = "sglang"\n\n[project.scripts]\nsglang-serve = "sglang.launch_server:main_cli"\n')

    # seed 003: module-level code of fp8.py (no def to open)
    PIN[s003["id"]] = 0
    write(root, s003["filePath"], place(FP8_HEADER, s003, FP8_FOOTER))
    # seed 001: the window opens inside `def resolve_moe_runner_backend(view):`
    PIN[s001["id"]] = 1
    write(root, s001["filePath"], place(OVERRIDES_HEADER, s001, OVERRIDES_FOOTER))
    # seed 000: the window opens inside ServerArgs._handle_a2a_moe
    PIN[s000["id"]] = 3
    fields = FIELDS_ARGPARSE if a.style == "argparse" else FIELDS_DATACLASS
    add_cli = ADD_CLI_ARGPARSE if a.style == "argparse" else ADD_CLI_DATACLASS
    common = SERVER_ARGS_COMMON if a.style == "argparse" else SERVER_ARGS_COMMON.replace("import logging\n", "import logging\nimport typing\n")
    header = common + fields + METHODS + add_cli + A2A_HEADER
    write(root, s000["filePath"], place(header, s000, SERVER_ARGS_FOOTER))


if __name__ == "__main__":
    main()
