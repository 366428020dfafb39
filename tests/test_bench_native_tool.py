"""tools/bench_native.py, without a compiler: which bound names it declares for Cython and mypyc,
and the declarations it writes into a function (worked by hand), and its refusal of a missing
compiler. The compiles themselves take 10-30 s of CPU each and are run by hand (docs/performance.md)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))
from bench_native import bound_names, declared, defined_functions, header, tool  # noqa: E402

MODULE = """def _block1(st, env):
    _i5 = (2 + env[0])
    _o6 = st.counters[_i5]
    _n7 = _o6 + 1
    if _n7 > _v3: _n7 = _v3
    if _n7 != _o6:
        st.counters[_i5] = _n7
    _b8 = (_v9 if 1 <= (_v9 := (_v4[env[1]])) <= 7 else _v2(_v9))
    _c10 = env[1]
    if _c10 is None: _v2()
    st.zones[_b8].append(_c10)
    _block11(st, env)

def _block11(st, env):
    _a12 = st.where[env[1]]
    _x13 = [c for c in st.zones[_a12] if _v4[c] == 3]
"""
# The builder's namespace: _v9 is bound there too, and is a local of _block1 (its `:=`).
SCOPE = {"_v2": print, "_v3": 30, "_v4": [1, 2], "_v9": None, "__builtins__": {}, "_block1": None, "_block11": None}


def test_the_declared_names_are_the_bound_ones_that_no_function_assigns():
    assert defined_functions(MODULE) == ["_block1", "_block11"]
    assert bound_names(MODULE, SCOPE) == ["_v2", "_v3", "_v4"]


@pytest.mark.parametrize("typed, expected", [
    (False, "_v2 = None\n_v3 = None\n\n"),
    (True, "from typing import Any\n_v2: Any = None\n_v3: Any = None\n\n"),
])
def test_the_header_declares_each_bound_name_once(typed, expected):
    assert header(["_v2", "_v3"], typed) == expected


def test_declarations_type_the_lists_read_and_the_whole_numbers_but_not_a_component():
    first, second = declared(MODULE).split("\n\ndef ")
    assert first.splitlines()[:7] == [
        "def _block1(st, list env):",
        "    cdef list _Z = st.zones",
        "    cdef list _C = st.counters",
        "    cdef Py_ssize_t _b8",
        "    cdef Py_ssize_t _i5",
        "    cdef long long _n7",
        "    cdef long long _o6",
    ]
    assert "    _o6 = _C[_i5]" in first and "    _Z[_b8].append(_c10)" in first
    assert "cdef Py_ssize_t _c10" not in first  # a component may be none
    assert second.splitlines()[:4] == [
        "_block11(st, list env):",
        "    cdef list _Z = st.zones",
        "    cdef list _W = st.where",
        "    cdef Py_ssize_t _a12",
    ]


def test_with_a_state_type_the_state_parameter_is_declared_of_it():
    assert declared(MODULE, "NativeState").startswith("def _block1(NativeState st, list env):\n")


def test_a_missing_compiler_is_said_by_name(tmp_path):
    with pytest.raises(SystemExit, match=r"no `cythonize` found \(pip install cython mypy, or --tools DIR\)"):
        tool("cythonize", tmp_path)
