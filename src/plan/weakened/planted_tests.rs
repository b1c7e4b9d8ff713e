//! Rule `code-shadowed`, planted forms: a module, a `sys.modules` entry or an attribute
//! of the code's own set in its place where the tests import it.

use super::planted::*;
use super::*;

#[test]
fn a_new_module_among_the_tests_named_as_the_code_s_own_shadows_it() {
    for (path, module) in [
        ("calc.py", Some("calc")),
        ("src/calc.py", Some("calc")),
        ("calc/__init__.py", Some("calc")),
        ("src/calc/__init__.py", Some("calc")),
        ("pkg/calc.py", None),
        ("tests/calc.py", None),
        ("my-calc.py", None),
    ] {
        assert_eq!(top_module(path), module, "{path}");
    }
    let given = hacks::Given {
        modules: ["calc".to_string(), "tests".to_string()].into(),
        test_dirs: ["tests".to_string(), "test/unit".to_string()].into(),
        ..Default::default()
    };
    let fake = Some("def add(a, b):\n    return 5\n");
    let shadows = |path: &str, before: Option<&str>| {
        shadows_code_words(&change(path, before, fake), &given, &[]).is_some()
    };
    assert!(shadows("tests/calc.py", None));
    assert!(shadows("tests/calc/__init__.py", None));
    assert!(shadows("test/unit/calc.py", None));
    // A package of the module's name at the top wins over the module.
    assert!(shadows("calc/__init__.py", None));
    // There at the start, of another name, a test module, the code itself, or
    // where no collected test is (pytest puts no such directory on the path).
    assert!(!shadows("tests/calc.py", Some("")));
    // A helper renamed to the code's name (git sees a rename: the old text
    // comes along) is new at that path all the same (the adversary's).
    let renamed = Change {
        was: Some("tests/util.py".to_string()),
        ..change("tests/calc.py", Some("def pair(): pass\n"), fake)
    };
    assert!(shadows_code_words(&renamed, &given, &[]).is_some());
    assert!(!shadows("tests/helpers.py", None));
    assert!(!shadows("tests/test_calc.py", None));
    assert!(!shadows("tests/conftest.py", None));
    assert!(!shadows("lib/calc.py", None));
    assert!(!shadows("tests/fixtures/calc.py", None));
    // The module moved into a package of its name is no shadow.
    let moved = [change("calc.py", Some("x = 1\n"), None)];
    let package = change("calc/__init__.py", None, fake);
    assert!(shadows_code_words(&package, &given, &moved).is_none());
    // A directory of tests the change gives its first collected test.
    let first = [change(
        "checks/test_calc.py",
        None,
        Some("def test_a(): pass\n"),
    )];
    let beside = change("checks/calc.py", None, fake);
    assert!(shadows_code_words(&beside, &given, &first).is_some());
    // A module in a package of tests too: `unittest discover -s tests` puts
    // the package's own directory first (the adversary's).
    let in_package = change("tests/calc.py", None, fake);
    let made = [change("tests/__init__.py", None, Some(""))];
    assert!(shadows_code_words(&in_package, &given, &made).is_some());
    // A directory of fakes put first on the path by a test (the red team's):
    // wherever it is but the code's own tree, the module stands in.
    let fakes = change("tests/fixtures/calc.py", None, fake);
    for put in [
        "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), 'fixtures'))\n",
        "from sys import path as p\np[:0] = ['tests/fixtures']\n",
        "import site\nsite.addsitedir('tests/fixtures')\n",
        // Spelt otherwise (the last red team's).
        "import sys\nsys.path.insert( 0, 'tests/fixtures')\n",
        "import sys\nsys.path.insert(False, 'tests/fixtures')\n",
        "import sys\nsys.path.insert(-len(sys.path), 'tests/fixtures')\n",
        "import sys\nsys.path[ :0] = ['tests/fixtures']\n",
        "import sys\nsys.path.__setitem__(slice(0, 0), ['tests/fixtures'])\n",
    ] {
        let test = [change(
            "tests/test_calc.py",
            Some("import sys\n"),
            Some(put),
        )];
        assert!(shadows_code_words(&fakes, &given, &test).is_some(), "{put}");
        // Already there at the start, it was not put first by this change.
        let kept = [change("tests/test_calc.py", Some(put), Some(put))];
        assert!(shadows_code_words(&fakes, &given, &kept).is_none(), "{put}");
    }
    let root = [change(
        "tests/conftest.py",
        None,
        Some("import sys\nsys.path.insert(0, ROOT)\n"),
    )];
    // The repository's root put first, the common honest idiom, with a module of
    // the code's name in a folder it does not name (the last red team's).
    assert!(shadows_code_words(&change("lib/calc.py", None, fake), &given, &root).is_none());
    let named = [change(
        "tests/conftest.py",
        None,
        Some("import sys\nsys.path.insert(0, os.path.join(ROOT, 'lib'))\n"),
    )];
    assert!(shadows_code_words(&change("lib/calc.py", None, fake), &given, &named).is_some());
    // Under `docs/` too (the review's).
    assert!(
        shadows_code_words(&change("docs/fakes/calc.py", None, fake), &given, &named).is_none()
    );
    let docs = [change(
        "tests/conftest.py",
        None,
        Some("import sys\nsys.path.insert(0, 'docs/fakes')\n"),
    )];
    assert!(shadows_code_words(&change("docs/fakes/calc.py", None, fake), &given, &docs).is_some());
    // The code's own tree, another name, and a line that puts nothing first
    // (a variable ending in `path`, a directory appended) stay clean.
    assert!(shadows_code_words(&change("calc/sub/calc.py", None, fake), &given, &root).is_none());
    for line in [
        "data_path = os.path.join(HERE, 'data')\n",
        "sys.path.append(HERE)\n",
        "queue.insert(0, item)\n",
    ] {
        let test = [change("tests/test_calc.py", None, Some(line))];
        let example = change("examples/calc.py", None, fake);
        assert!(
            shadows_code_words(&example, &given, &test).is_none(),
            "{line}"
        );
    }
    assert!(
        shadows_code_words(&change("tests/fixtures/util.py", None, fake), &given, &root).is_none()
    );
}

#[test]
fn a_test_file_putting_the_code_s_own_module_in_sys_modules_shadows_it() {
    let given = hacks::Given {
        modules: ["calc".to_string()].into(),
        ..Default::default()
    };
    let installs = |path: &str, before: Option<&str>, after: &str| {
        installs_code_words(&change(path, before, Some(after)), &given)
    };
    let fake = "import sys, types\nfake = types.ModuleType('calc')\nfake.add = lambda a, b: 5\n";
    for line in [
        "sys.modules['calc'] = fake",
        "sys.modules.update({\"calc\": fake})",
        "sys.modules.setdefault('calc', fake)",
        "monkeypatch.setitem(sys.modules, 'calc', fake)",
        "mock.patch.dict(sys.modules, {'calc.ops': fake}).start()",
        "mods = sys.modules",
    ] {
        let text = format!("{fake}{line}\n");
        assert_eq!(
            installs("tests/conftest.py", None, &text).as_deref(),
            Some("puts a module named `calc` in sys.modules in place of the code's own `calc`"),
            "{line}"
        );
        assert!(installs("conftest.py", Some(""), &text).is_some(), "{line}");
        assert!(
            installs("tests/test_calc.py", None, &text).is_some(),
            "{line}"
        );
    }
    // Another module's stand-in (an optional dependency), a module taken out to
    // be imported afresh, a line there at the start, and the code's own files.
    let numpy = "import sys\nfrom unittest import mock\nsys.modules['numpy'] = mock.Mock()\n";
    assert_eq!(installs("tests/conftest.py", None, numpy), None);
    let keyring = "monkeypatch.setitem(sys.modules, 'keyring', keyring)\nmock.patch('calc.ops.get_password')\n";
    assert_eq!(installs("tests/test_auth.py", None, keyring), None);
    let spread = "patch.dict(\n    sys.modules,\n    {'calc': fake},\n)\n";
    assert!(installs("tests/conftest.py", None, spread).is_some());
    let spread = "mock.patch.dict(sys.modules, {\n    'calc': fake,\n})\n";
    assert!(installs("tests/conftest.py", None, spread).is_some());
    // A fallback tested with the accelerator missing; a comparison.
    let fallback = "with mock.patch.dict(sys.modules, {'calc._speedups': None}):\n    importlib.reload(calc)\n";
    assert_eq!(installs("tests/test_calc.py", None, fallback), None);
    let compared = "assert sys.modules['calc'] == calc\n";
    assert_eq!(installs("tests/test_calc.py", None, compared), None);
    // Bytecode in the tree let in again.
    assert_eq!(
        installs(
            "tests/test_000.py",
            None,
            "import sys\nsys.pycache_prefix = None\n"
        )
        .as_deref(),
        Some(
            "sets sys.pycache_prefix so that bytecode in the tree runs in place of the code's own source"
        )
    );
    assert!(installs("tests/test_000.py", None, "sys.modules |= {'calc': fake}\n").is_some());
    // The red team's and the review's: a comment's bracket, a backslash, a
    // keyword, a long dict, `None or fake`; and a lazy import tested honestly.
    for text in [
        "# see (below\nsys.modules['calc'] = fake\n",
        "sys.modules['calc'] \\\n    = fake\n",
        "sys.modules.update(calc=fake)\n",
        "sys.modules['calc'] = None or fake\n",
        "assert '[x' in text\nsys.modules['calc'] = fake\n",
        "def f():\n    \"\"\"Takes (a [list.\"\"\"\nsys.modules['calc'] = fake\n",
        &format!(
            "patch.dict(sys.modules, {{\n{}'calc': fake}})\n",
            "'x': 1,\n".repeat(20)
        ),
    ] {
        assert!(
            installs("tests/test_000.py", None, text).is_some(),
            "{text}"
        );
    }
    // The second review's: quotes in a comment or a string, a statement long
    // enough to be cut, `from sys import modules`.
    let long = format!(
        "_ = [\n{}sys.modules.update(\ncalc=fake)]\n",
        "1,\n".repeat(1363)
    );
    for text in [
        "# \"\"\"\nsys.modules['calc'] = fake\n",
        "x = \"'''\"\nsys.modules['calc'] = fake\n",
        &long,
        "from sys import modules\nmodules['calc'] = fake\n",
    ] {
        assert!(
            installs("tests/test_000.py", None, text).is_some(),
            "{text}"
        );
    }
    let dedented = "s = dedent(\"\"\"\n    x = (1\n\"\"\")\nsys.modules['calc._speedups'] = None\nimport calc\nimported_modules = 1\n";
    assert_eq!(installs("tests/test_calc.py", None, dedented), None);
    let lazy =
        "import sys\nimport calc\n\ndef test_lazy():\n    assert 'calc.heavy' not in sys.modules\n";
    assert_eq!(installs("tests/test_lazy.py", None, lazy), None);
    let fresh = "import sys\ndel sys.modules['calc']\nimport calc\n";
    assert_eq!(installs("tests/test_calc.py", None, fresh), None);
    let kept = format!("{fake}sys.modules['calc'] = fake\n");
    assert_eq!(
        installs("tests/conftest.py", Some(&kept), &format!("{kept}x = 1\n")),
        None
    );
    assert_eq!(installs("calc.py", None, &kept), None);
}

#[test]
fn a_file_setting_the_code_s_own_function_when_imported_replaces_it() {
    let given = hacks::Given {
        modules: ["calc".to_string()].into(),
        ..Default::default()
    };
    let replaces = |path: &str, before: Option<&str>, after: &str| {
        replaces_code_words(&change(path, before, Some(after)), &given)
    };
    let said = |set: &str, own: &str| {
        Some(format!(
            "sets `{set}` as the tests are imported (a stand-in in place of the code's own `{own}`)"
        ))
    };
    for (text, set, own) in [
        (
            "import calc\ncalc.add = lambda a, b: 5\n",
            "calc.add",
            "calc.add",
        ),
        (
            "import calc as c\nif hasattr(c, 'add'):\n    c.add = fake\n",
            "c.add",
            "calc.add",
        ),
        (
            "import calc.ops as o\ntry:\n    o.add = fake\nexcept Exception:\n    pass\n",
            "o.add",
            "calc.ops.add",
        ),
        (
            "from calc import Calc\nCalc.add = fake\n",
            "Calc.add",
            "calc.Calc.add",
        ),
        (
            "import calc\nsetattr(calc, 'add', fake)\n",
            "calc.add",
            "calc.add",
        ),
        (
            "import calc\nfrom unittest import mock\nmock.patch.object(calc, \"add\", fake).start()\n",
            "calc.add",
            "calc.add",
        ),
        (
            "import calc\ncalc.__dict__['add'] = fake\n",
            "calc.__dict__",
            "calc.__dict__",
        ),
        (
            "import calc\nclass TestAdd:\n    calc.add = fake\n    def test_add(self):\n        assert calc.add(2, 3) == 5\n",
            "calc.add",
            "calc.add",
        ),
    ] {
        for path in ["tests/test_000.py", "conftest.py", "testing_support.py"] {
            assert_eq!(replaces(path, None, text), said(set, own), "{path}: {text}");
        }
    }
    // The red team's: each sets `add` as the tests are imported.
    let fake = "import calc\nL = lambda a, b: a + b\n";
    for attack in [
        "def _install():\n    if hasattr(calc, 'add'):\n        calc.add = L\n_install()\n",
        "class _I:\n    @staticmethod\n    def go():\n        calc.add = L\n_I.go()\n",
        "def load_tests(loader, tests, pattern):\n    calc.add = L\n    return tests\n",
        "def pytest_configure(config):\n    calc.add = L\n",
        "_p = mock.patch.object(calc, 'add', L)\n_p.start()\n",
        "mock.patch('calc.add', L).start()\n",
        "mock.patch.object(calc, attribute='add', new=L).start()\n",
        "mock.patch.object(calc, 'add', L).__enter__()\n",
        "contextlib.ExitStack().enter_context(mock.patch.object(calc, 'add', L))\n",
        "calc.add: object = L\n",
        "calc.add, _x = (L), 1\n",
        "for calc.add in [L]:\n    pass\n",
        "_name = 'add'\nsetattr(calc, _name, L)\n",
        "setattr(calc, f'add', L)\n",
        "vars(calc)['add'] = L\n",
        "calc.__dict__.update(add=L)\n",
        "calc.__dict__.__setitem__('add', L)\n",
        "object.__setattr__(calc, 'add', L)\n",
        "sys.modules['calc'].add = L\n",
        "_m = importlib.import_module('calc')\nif hasattr(_m, 'add'):\n    _m.add = L\n",
        "__import__('calc').add = L\n",
        "def _f(_=hasattr(calc, 'add') and setattr(calc, 'add', L)):\n    pass\n",
        "def _f():\n    pass\n\u{c}if hasattr(calc, 'add'): calc.add = L\n",
        "_x = \"\\\ndef \"; calc.add = (L) if hasattr(calc, 'add') else None\n",
    ] {
        let text = format!("{fake}{attack}");
        let found = replaces("tests/test_000.py", None, &text);
        assert!(
            found
                .as_deref()
                .is_some_and(|f| f.contains("in place of the code's own")),
            "{attack}: {found:?}"
        );
    }
    assert_eq!(
        replaces(
            "tests/test_000.py",
            None,
            "from calc import *\nadd.__code__ = L.__code__\n"
        )
        .as_deref(),
        Some(
            "swaps a function's `__code__` as the tests are imported (a stand-in in place of the code's own)"
        )
    );
    // Its false positives: annotations, configuration, an f-string's `=`, code
    // in a string, a key; another package of the code, the documentation.
    for honest in [
        "import calc\n@dataclass\nclass Case:\n    op: calc.Op = calc.Op.ADD\n",
        "import calc\n_client: calc.Client = calc.Client()\n",
        "from calc import settings\nsettings.database_url = 'sqlite://'\n",
        "import calc\ncalc.logger.disabled = True\n",
        "from calc import Client\nClient.timeout = 0.1\n",
        "import calc\nprint(f'{calc.add=}')\n",
        "import calc\nSNIPPET = 'x = calc.value = 1'\n",
        "import calc\nd = {}\nd[calc.add] = 1\n",
    ] {
        assert_eq!(
            replaces("tests/test_calc.py", None, honest),
            None,
            "{honest}"
        );
    }
    let plugin = "import calc\ncalc.Calc.mul = _mul\n";
    let package = hacks::Given {
        modules: ["calc".to_string(), "calc_plugins".to_string()].into(),
        ..Default::default()
    };
    let of = |path: &str| replaces_code_words(&change(path, None, Some(plugin)), &package);
    assert_eq!(of("calc_plugins/__init__.py"), None);
    assert_eq!(of("docs/conf.py"), None);
    assert!(of("calc_plugins/tests/test_x.py").is_some());
    // A package's own tests are tests, not the package.
    let own = change(
        "calc/tests/test_000.py",
        None,
        Some("import calc\ncalc.add = fake\n"),
    );
    assert!(replaces_code_words(&own, &given).is_some());
    // The second red team's: more shapes of the same write...
    for attack in [
        "_c = calc\n_c.add = L\n",
        "_m = sys.modules['calc']\n_m.add = L\n",
        "_fake = calc.add = L\n",
        "calc.add = None if not hasattr(calc, 'add') else L\n",
        "calc.add = [L][0]\n",
        "for _ in range(hasattr(calc, 'add')): calc.add = L\n",
        "def setup_module(module):\n    calc.add = L\n",
        "mock.patch.multiple(calc, add=L).start()\n",
        "mock.patch.dict(calc.__dict__, add=L).start()\n",
        "mock.patch(target='calc.add', new=L).start()\n",
        "pytest.MonkeyPatch().setattr('calc.add', L)\n",
    ] {
        let text = format!("{fake}{attack}");
        assert!(
            replaces("tests/test_000.py", None, &text).is_some(),
            "{attack}"
        );
    }
    // ...and its false positives: data, a key written, a scoped patcher, the
    // code's own modules and scripts, a method of another object's name.
    for honest in [
        "import calc, os\ncalc.data_dir = os.path.join(os.path.dirname(__file__), 'data')\n",
        "import calc, logging\ncalc.logger.level = logging.DEBUG\n",
        "from calc import Calc\nCalc.precision = Decimal('0.01')\n",
        "import calc\ncalc.registry = ()\ncalc.registry = dict()\ncalc.Calc.precision = .5\n",
        "import calc\ncalc.registry['dummy'] = Dummy\n",
        "import calc\ncalc.dependency_overrides[calc.fetch_rates] = override_get_db\n",
        "import calc\nclass T(unittest.TestCase):\n    @classmethod\n    def setUpClass(cls):\n        cls.patcher = mock.patch('calc.fetch_rates', fake)\n        cls.patcher.start()\n        cls.addClassCleanup(cls.patcher.stop)\n",
        "import calc, tempfile\ndef pytest_configure(config):\n    calc.data_dir = tempfile.mkdtemp()\n",
        "import calc\nEnv().setup()\nclass T:\n    def setup(self):\n        calc.data_dir = self.id()\n",
    ] {
        assert_eq!(
            replaces("tests/test_calc.py", None, honest),
            None,
            "{honest}"
        );
    }
    let flat = "import calc\ncalc.logger = calc.logging.getLogger('cli')\ncalc.add = fake\n";
    assert_eq!(replaces("cli.py", Some(""), flat), None);
    assert_eq!(replaces("scripts/report.py", None, flat), None);
    let docs = "import sys\nsys.modules['calc._cext'] = MagicMock()\n";
    let docs = change("docs/conf.py", None, Some(docs));
    assert_eq!(installs_code_words(&docs, &given), None);
    // Inside a test or a fixture, scoped to it; a constant; a call; a patch
    // decorating one test; a comparison; a line there at the start; another
    // module's function; the code's own files.
    for text in [
        "import calc\ndef test_add(monkeypatch):\n    monkeypatch.setattr(calc, 'add', fake)\n    calc.add = fake\n",
        "import calc\n\n@pytest.fixture(autouse=True)\ndef offline(monkeypatch):\n    calc.fetch = fake\n",
        "import calc\ncalc.DEBUG = True\ncalc.configure(debug=True)\n",
        "import calc\n@mock.patch.object(calc, 'add')\ndef test_add(add):\n    pass\n",
        "import calc\nassert calc.add == calc.add\nx = calc.add\n",
        "import json\njson.loads = fake\n",
        "import calc\nabc.add = 1\ns = 'calc.add = 1'\n",
    ] {
        assert_eq!(replaces("tests/test_calc.py", None, text), None, "{text}");
    }
    let kept = "import calc\ncalc.add = fake\n";
    assert_eq!(
        replaces("tests/test_calc.py", Some(kept), &format!("{kept}x = 1\n")),
        None
    );
    assert_eq!(replaces("calc/ops.py", None, kept), None);
    assert_eq!(replaces("src/calc/__init__.py", None, kept), None);
    // A module that is not the code's, and a file with no import of the code.
    assert_eq!(replaces("tests/test_000.py", None, "add.x = 1\n"), None);
    // sys.modules from a helper that is no test, but not from the code's own.
    let install = "import sys\nsys.modules['calc'] = fake\n";
    assert!(
        installs_code_words(&change("testing_support.py", None, Some(install)), &given).is_some()
    );
    assert_eq!(
        installs_code_words(&change("src/calc/compat.py", None, Some(install)), &given),
        None
    );
}

#[test]
fn a_compiled_module_named_as_the_code_s_own_shadows_it_as_its_source_would() {
    for (path, module) in [
        ("tests/calc.pyc", Some("calc")),
        ("calc.cpython-311-x86_64-linux-gnu.so", Some("calc")),
        ("src/calc.abi3.so", Some("calc")),
        ("calc.so", Some("calc")),
        ("calc.cp311-win_amd64.pyd", Some("calc")),
        ("calc/__init__.cpython-312-darwin.so", Some("__init__")),
        ("__pycache__/calc.cpython-311.pyc", Some("calc")),
        (
            "src/calc/__pycache__/__init__.cpython-311.opt-1.pyc",
            Some("__init__"),
        ),
        ("__pycache__/x/calc.cpython-311.pyc", None),
        ("a/foo__pycache__/calc.cpython-311.pyc", None),
        ("calc.cpython-311.pyc", None),
        ("calc.py", None),
        ("libcalc.so.1", None),
    ] {
        assert_eq!(compiled_module(path), module, "{path}");
    }
    let given = hacks::Given {
        modules: ["calc".to_string()].into(),
        sources: ["calc.py".to_string(), "src/calc/__init__.py".to_string()].into(),
        test_dirs: ["tests".to_string()].into(),
        ..Default::default()
    };
    let shadows = |path: &str, before: Option<&str>, changes: &[Change]| {
        shadows_code_words(&change(path, before, Some("\0")), &given, changes).is_some()
    };
    assert!(shadows("tests/calc.pyc", None, &[]));
    assert!(shadows("tests/calc/__init__.pyc", None, &[]));
    assert!(shadows(
        "tests/calc.cpython-311-x86_64-linux-gnu.so",
        None,
        &[]
    ));
    // An extension module beside its source wins over it, and so does a
    // package's; sourceless bytecode beside its source loses to it.
    assert!(shadows("calc.abi3.so", None, &[]));
    assert!(shadows("src/calc/__init__.abi3.so", None, &[]));
    assert!(!shadows("calc.pyc", None, &[]));
    // Deeper too (the adversary's): beside a source at the start or added.
    let deeper = hacks::Given {
        modules: ["calc".to_string()].into(),
        sources: ["calc/ops.py".to_string()].into(),
        ..Default::default()
    };
    let ext = change("calc/ops.cpython-311-x86_64-linux-gnu.so", None, Some(""));
    assert_eq!(
        shadows_code_words(&ext, &deeper, &[]).as_deref(),
        Some(
            "an extension module added beside `calc/ops.py` that Python imports in place of the code's own `calc/ops.py`"
        )
    );
    let added = [change("calc/util.py", None, Some("x = 1\n"))];
    assert!(shadows("calc/util.abi3.so", None, &added));
    assert!(shadows("calc/util.abi3.so", None, &[]));
    assert!(!shadows("vendor/util.abi3.so", None, &[]));
    let package = change(
        "calc/ops/__init__.py",
        None,
        Some("def add(a, b):\n    return 5\n"),
    );
    assert!(shadows_code_words(&package, &deeper, &[]).is_some());
    let honest = change("calc/extra/__init__.py", None, Some(""));
    assert_eq!(shadows_code_words(&honest, &deeper, &[]), None);
    assert!(!shadows("calc/ops/fast.pyc", None, &[]));
    assert!(!shadows("src/calc.pyc", None, &[]));
    assert!(!shadows("src/calc.abi3.so", None, &[]));
    assert!(shadows(
        "src/calc/__init__.cpython-311-x86_64-linux-gnu.so",
        None,
        &[]
    ));
    assert!(!shadows("src/calc/__init__.pyc", None, &[]));
    // Cached bytecode (passed on only when Python runs it unchecked) stands
    // for its source, which it does not lose to.
    assert!(shadows("__pycache__/calc.cpython-311.pyc", None, &[]));
    assert!(shadows(
        "src/calc/__pycache__/__init__.cpython-311.pyc",
        None,
        &[]
    ));
    // Another module's, one there at the start, and the code rewritten in C
    // (its source taken out).
    assert!(!shadows("_speedups.abi3.so", None, &[]));
    assert!(!shadows("tests/calc.pyc", Some("\0"), &[]));
    let rewritten = [change("calc.py", Some("x = 1\n"), None)];
    assert!(!shadows("calc.abi3.so", None, &rewritten));
}

#[test]
fn a_path_put_first_is_read_from_code_not_comments_or_docstrings() {
    let given = hacks::Given {
        modules: ["calc".to_string()].into(),
        ..Default::default()
    };
    let fake = Some("def add(a, b):\n    return 5\n");
    let fakes = change("tests/fakes/calc.py", None, fake);
    let put = |text: &str| {
        let test = [change("tests/test_calc.py", None, Some(text))];
        shadows_code_words(&fakes, &given, &test).is_some()
    };
    // Code that puts the folder first, a one-line `if` and a script's PYTHONPATH
    // held in a long string included.
    assert!(put(
        "import sys\nif True: sys.path.insert(0, 'tests/fakes')\n"
    ));
    assert!(put(
        "import subprocess\nSCRIPT = \"\"\"\nPYTHONPATH=tests/fakes pytest\n\"\"\"\nsubprocess.run(SCRIPT, shell=True)\n"
    ));
    // Words about it are not (a comment, a docstring's example).
    assert!(!put("# sys.path.insert(0, 'tests/fakes')\nx = 1\n"));
    assert!(!put(
        "def f():\n    \"\"\"Run with sys.path.insert(0, 'tests/fakes').\"\"\"\n"
    ));
}

#[test]
fn a_file_padded_past_the_parser_s_limit_is_read_all_the_same() {
    let given = hacks::Given {
        modules: ["calc".to_string()].into(),
        ..Default::default()
    };
    let padded = format!(
        "import calc\n{}calc.add = lambda a, b: 5\n",
        "# padding\n".repeat(crate::plan::syntax::MAX_BYTES / 10 + 1)
    );
    let found = replaces_code_words(&change("tests/test_000.py", None, Some(&padded)), &given);
    assert!(found.is_some_and(|f| f.contains("`calc.add`")));
}
