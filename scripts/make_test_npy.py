#!/usr/bin/env python3
"""Writes the .npy fixtures in tests/data with NumPy itself (run with a Python that has NumPy:
/usr/bin/python3 from Debian's python3-numpy). The C++ tests read them to check compatibility."""
import os
import numpy as np

d = os.path.join(os.path.dirname(__file__), "..", "tests", "data")
os.makedirs(d, exist_ok=True)
np.save(os.path.join(d, "np_f32_1d.npy"), np.array([0.5, -1.25, 3.0, 1e-7, -0.0], dtype="<f4"))
np.save(os.path.join(d, "np_f64_2d.npy"), np.arange(12, dtype="<f8").reshape(3, 4) / 8.0)
np.save(os.path.join(d, "np_i32_1d.npy"), np.array([-2147483648, -1, 0, 1, 2147483647], dtype="<i4"))
np.save(os.path.join(d, "np_u8_1d.npy"), np.array([0, 7, 255], dtype="u1"))
np.save(os.path.join(d, "np_f32_big_endian.npy"), np.array([1, 2, 3], dtype=">f4"))
np.save(os.path.join(d, "np_f16.npy"), np.array([1, 2, 3], dtype="<f2"))
np.save(os.path.join(d, "np_f64_fortran.npy"), np.asfortranarray(np.arange(6, dtype="<f8").reshape(2, 3)))
with open(os.path.join(d, "np_f32_v2.npy"), "wb") as f:
    np.lib.format.write_array(f, np.array([1.5, 2.5], dtype="<f4"), version=(2, 0))
# x input for vector_add tests: 1000 float32 values and a mis-shaped 2-D one
np.save(os.path.join(d, "np_x_f32_1000.npy"), (np.arange(1000, dtype="<f4") * 0.25 - 7.0))
np.save(os.path.join(d, "np_x_f32_2d.npy"), np.ones((10, 100), dtype="<f4"))
raw = open(os.path.join(d, "np_f32_1d.npy"), "rb").read()
open(os.path.join(d, "np_truncated.npy"), "wb").write(raw[:-6])
open(os.path.join(d, "not_npy.npy"), "wb").write(b"hello, this is not numpy\n")
print("fixtures written to", os.path.abspath(d))
