"""bf16 and fp8 conversions, checked against an independent numpy
rounding and against known encodings."""

import numpy as np
import pytest

import hk


def bf16_reference(values):
    """Round-to-nearest-even of float32 to bf16, written out in numpy."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    upper, lower = bits >> 16, bits & 0xFFFF
    round_up = (lower > 0x8000) | ((lower == 0x8000) & (upper & 1 == 1))
    return (upper + round_up).astype(np.uint16)


def test_to_bf16_rounds_to_nearest_even():
    rng = np.random.default_rng(5)
    values = np.concatenate([
        rng.standard_normal(10000).astype(np.float32),
        # Ties both ways, the largest finite numbers, subnormals, zeros.
        np.array([0x3F808000, 0x3F818000, 0x7F7FFFFF, 0x00000001, 0x80000000,
                  0x3F807FFF], np.uint32).view(np.float32),
    ])
    assert np.array_equal(hk.to_bf16(values), bf16_reference(values))


def test_bf16_special_values_and_shapes():
    bits = hk.to_bf16(np.array([[np.inf, -np.inf], [np.nan, 1.0]]))
    assert bits.shape == (2, 2) and bits.dtype == np.uint16
    assert bits[0, 0] == 0x7F80 and bits[0, 1] == 0xFF80
    assert np.isnan(hk.from_bf16(bits)[1, 0])
    assert hk.to_bf16(1.0) == 0x3F80


def test_from_bf16_is_exact_and_inverts_to_bf16():
    every = np.arange(1 << 16, dtype=np.uint16)
    values = hk.from_bf16(every)
    assert values.dtype == np.float32
    expected = every.astype(np.uint32) << 16
    assert np.array_equal(values.view(np.uint32), expected)
    finite = ~np.isnan(values)
    assert np.array_equal(hk.to_bf16(values[finite]), every[finite])


def test_from_bf16_requires_uint16():
    with pytest.raises(TypeError, match="uint16"):
        hk.from_bf16(np.zeros(4, np.int16))


@pytest.mark.parametrize("dtype, one, largest, largest_bits", [
    ("f8E4M3FN", 0x38, 448.0, 0x7E),
    ("f8E5M2", 0x3C, 57344.0, 0x7B),
    ("f8E4M3FNUZ", 0x40, 240.0, 0x7F),
    ("f8E5M2FNUZ", 0x40, 57344.0, 0x7F),
])
def test_fp8_known_encodings(dtype, one, largest, largest_bits):
    assert hk.to_fp8(1.0, dtype) == one
    assert hk.to_fp8(largest, dtype) == largest_bits
    assert hk.to_fp8(1e9, dtype, saturate=True) == largest_bits
    every = np.arange(256, dtype=np.uint8)
    values = hk.from_fp8(every, dtype)
    finite = np.isfinite(values)
    assert values[finite].max() == largest
    # Every finite encoding but negative zero round-trips.
    keep = finite & ~((values == 0) & (every != 0))
    assert np.array_equal(hk.to_fp8(values[keep], dtype), every[keep])


def test_fp8_rejects_unknown_types():
    with pytest.raises(ValueError, match="unknown fp8 type"):
        hk.to_fp8([1.0], "f8E3M4")
