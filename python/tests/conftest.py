"""Shared fixtures: compiled examples and devices, each made once per run."""

import pathlib

import pytest

import hk

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
CHIPS = ("gfx942", "gfx950")


@pytest.fixture(scope="session")
def example():
    """example(path under examples/, chip) -> hk.Module, compiled once."""
    modules = {}

    def compile_example(path, chip):
        if (path, chip) not in modules:
            modules[path, chip] = hk.compile_file(EXAMPLES / path, chip)
        return modules[path, chip]

    return compile_example


@pytest.fixture(scope="session")
def device():
    """device(chip) -> hk.Device, one per chip."""
    devices = {}

    def get(chip):
        if chip not in devices:
            devices[chip] = hk.Device(chip)
        return devices[chip]

    return get


def ceil_div(a, b):
    return -(-a // b)
