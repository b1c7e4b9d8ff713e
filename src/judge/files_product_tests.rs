//! What the verify rests on is the check, not the product it runs: a test
//! runner's own source in the runner's repository, and files a block comment
//! spells, are left out of [`verify_runs`]; every check script stays.

use super::*;

fn verify(line: &str) -> Verify {
    crate::verify::parse(line).unwrap()
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn has(files: &[String], rel: &str) -> bool {
    files.iter().any(|f| f == rel)
}

/// pytest's repository runs its tests with `python3 -m pytest`: the module that
/// resolves to is pytest itself, the product its tests test, not a check (the
/// tuning sample's pytest commits: `pytest.py`, and through `pytest/__main__.py`
/// the whole package and the `setup.py` a plugin names, were
/// `verify-file-changed`, high).
#[test]
fn a_runners_own_module_in_the_runners_repository_is_the_product() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "setup.py",
        "from setuptools import setup\nsetup(\n    name='pytest',\n    py_modules=['pytest'],\n)\n",
    );
    write(root, "pytest.py", "def main():\n    return 0\n");
    write(root, "testing/conftest.py", "pytest_plugins = 'pytester'\n");
    write(
        root,
        "testing/test_main.py",
        "def test_main():\n    assert 1\n",
    );
    let runs = |line: &str| verify_runs(root, &verify(line));
    let found = runs("python3 -m pytest -q");
    assert!(!has(&found, "pytest.py"), "{found:?}");
    // What the verify names besides is still its check.
    let found = runs("python3 -m pytest -q testing");
    assert!(!has(&found, "pytest.py"), "{found:?}");
    assert!(has(&found, "testing/conftest.py"), "{found:?}");
    // The judge's and the record's closure, and the gate's laying, keep it.
    assert!(has(
        &verify_closure(root, &verify("python3 -m pytest -q")),
        "pytest.py"
    ));
    assert!(has(
        &verify_scripts(root, &verify("python3 -m pytest -q")),
        "pytest.py"
    ));

    // A package: its `__main__.py`, what that reaches, and the folder the
    // module's name spells.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "setup.py",
        "setup(name=\"pytest\", packages=['pytest', 'pytest.plugin'])\n",
    );
    write(
        root,
        "pytest/__main__.py",
        "import pytest\nraise SystemExit(pytest.main())\n",
    );
    write(root, "pytest/__init__.py", "from pytest.main import main\n");
    write(root, "pytest/main.py", "def main():\n    return 0\n");
    write(
        root,
        "pytest/plugin/genscript.py",
        "import os\nos.system('python setup.py sdist')\n",
    );
    let found = verify_runs(root, &verify("python3 -m pytest -q"));
    assert!(found.is_empty(), "{found:?}");
}

/// Attacks: a module of a runner's name the repository does not ship (a copy it
/// vendors, or no manifest at all), and a check module a manifest names as the
/// project, stay what the verify rests on; so does a check the verify runs
/// beside a runner in its own repository.
#[test]
fn attack_a_runner_the_repository_does_not_ship_or_a_check_it_names_stays() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "pytest.py", "import sys\nsys.exit(0)\n");
    let runs = |line: &str| verify_runs(root, &verify(line));
    assert!(has(&runs("python3 -m pytest -q"), "pytest.py"));
    write(
        root,
        "setup.py",
        "setup(name='myapp', py_modules=['myapp'])\n",
    );
    assert!(has(&runs("python3 -m pytest -q"), "pytest.py"));
    // A manifest whose `name` is another key's (a console script's) names no
    // project.
    write(
        root,
        "pyproject.toml",
        "[project]\nname = \"myapp\"\n[[tool.x]]\nname = \"pytest\"\n",
    );
    assert!(has(&runs("python3 -m pytest -q"), "pytest.py"));
    // A check module is a check, whatever the manifest calls the project.
    write(root, "setup.py", "setup(name='checks')\n");
    write(root, "checks.py", "import sys\nsys.exit(0)\n");
    assert!(has(&runs("python3 -m checks"), "checks.py"));
    write(root, "setup.py", "setup(name='pytest')\n");
    assert!(!has(&runs("python3 -m pytest -q"), "pytest.py"));
    // A manifest renamed since the check's start makes no vendored runner the
    // product: the repository was not that runner then.
    let since = |started: &[&str]| {
        let started: Vec<String> = started.iter().map(|s| s.to_string()).collect();
        let line = verify("python3 -m pytest -q");
        verify_runs_since(root, &line, &[], &[], Some(&started)).0
    };
    assert!(has(&since(&["myapp"]), "pytest.py"));
    assert!(has(&since(&[]), "pytest.py"));
    assert!(!has(&since(&["pytest"]), "pytest.py"));
    write(root, "check.py", "assert 1\n");
    write(
        root,
        "run_tests.sh",
        "#!/bin/sh\npython3 -m pytest -q\npython3 check.py\n",
    );
    write(root, "Makefile", "check:\n\tbash run_tests.sh\n");
    for line in [
        "python3 -m pytest -q && python3 check.py",
        "bash run_tests.sh",
        "make check",
    ] {
        let found = runs(line);
        assert!(has(&found, "check.py"), "{line}: {found:?}");
        assert!(!has(&found, "pytest.py"), "{line}: {found:?}");
    }
    assert!(has(&runs("bash run_tests.sh"), "run_tests.sh"));
    assert!(has(&runs("make check"), "Makefile"));
}

/// axios's `npm test` runs `grunt test`: its Gruntfile's banner string opens a
/// block comment (`'/* <%= pkg.name %> … */'`), whose `/*` read as a glob of
/// every script at the root, an executable README.md and the `index.d.ts` the
/// package ships among them (`verify-file-changed`, high). Text inside a block
/// comment runs nothing, and a declaration file runs no code.
#[test]
fn a_block_comment_or_a_declaration_file_is_no_check() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "package.json",
        r#"{"scripts": {"test": "grunt test"}}"#,
    );
    write(
        root,
        "Gruntfile.js",
        "/* eslint-disable strict */\nmodule.exports = function (grunt) {\n  grunt.initConfig({\n    meta: { banner: '/* <%= pkg.name %> v<%= pkg.version %> */\\n' },\n    karma: { options: { configFile: 'karma.conf.js' } },\n  });\n};\n",
    );
    write(
        root,
        "karma.conf.js",
        "/**\n * Runs the specs: see README.md\n */\nmodule.exports = function (config) {};\n",
    );
    write(root, "README.md", "# lib\n\nrun `npm test`\n");
    write(
        root,
        "index.d.ts",
        "export declare function get(url: string): void;\n",
    );
    write(root, "index.js", "module.exports = require('./lib/a');\n");
    write(root, "test/a.spec.js", "require('./types.d.ts');\n");
    write(root, "test/types.d.ts", "export {};\n");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(root.join("README.md"), fs::Permissions::from_mode(0o755)).unwrap();
    let found = sorted(verify_runs(root, &verify("npm test")));
    assert_eq!(found, ["Gruntfile.js", "karma.conf.js"]);
    assert_eq!(
        verify_runs(root, &verify("node test/a.spec.js")),
        ["test/a.spec.js"]
    );
}

/// Attacks: a script named beside a block comment, after it on its line or in a
/// glob whose `/*` opens no comment, and a script a shell runner globs, stay.
#[test]
fn attack_a_script_beside_a_comment_or_in_a_glob_stays() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "package.json",
        r#"{"scripts": {"test": "grunt test"}}"#,
    );
    write(
        root,
        "Gruntfile.js",
        "/* the checks */ require('./checks/one.js');\nconst all = glob.sync(__dirname + '/checks/*.js');\n/* unclosed: require('./checks/two.js')\n",
    );
    write(root, "checks/one.js", "process.exit(0);\n");
    write(root, "checks/three.js", "process.exit(0);\n");
    write(root, "checks/two.js", "process.exit(0);\n");
    let found = verify_runs(root, &verify("npm test"));
    for rel in ["checks/one.js", "checks/three.js", "checks/two.js"] {
        assert!(has(&found, rel), "{rel}: {found:?}");
    }
    // A shell's `/*` is a glob, not a comment.
    write(
        root,
        "run.sh",
        "#!/bin/sh\nfor t in checks/*; do node \"$t\"; done\n",
    );
    let found = verify_runs(root, &verify("sh run.sh"));
    assert!(has(&found, "checks/one.js"), "{found:?}");
    // A declaration a test names is no check, but a check it names is.
    write(
        root,
        "test/a.spec.js",
        "require('./helper.ts');\nrequire('./types.d.ts');\n",
    );
    write(root, "test/types.d.ts", "export {};\n");
    write(root, "test/helper.ts", "export const x = 1;\n");
    let found = verify_runs(root, &verify("node test/a.spec.js"));
    assert!(has(&found, "test/helper.ts"), "{found:?}");
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The names a manifest gives its project, as packaging compares them; other
/// keys and tables name none.
#[test]
fn a_project_s_names_are_read_from_its_manifests() {
    let texts = [
        (
            "setup.py",
            "setup(\n    name = 'Py-Test',\n    filename='x',\n)\n",
        ),
        (
            "setup.cfg",
            "[options]\nname = nope\n[metadata]\nname = cfg.name\n",
        ),
        (
            "pyproject.toml",
            "[project]  # the package\nname = \"proj\"\n[project.urls]\nname = \"url\"\n",
        ),
    ];
    let read = |file: &str| {
        (texts.iter())
            .find(|(f, _)| *f == file)
            .map(|(_, t)| t.to_string())
    };
    assert_eq!(project_names_in(&read), ["py_test", "cfg_name", "proj"]);
}

/// Many `/*` that open no comment, or one left open, are read in one pass.
#[test]
fn block_comments_are_read_in_linear_time() {
    let many = "a/*b ".repeat(200_000);
    assert_eq!(without_block_comments(&many), many);
    let open = format!("/* {}", "y /* ".repeat(200_000));
    assert_eq!(without_block_comments(&open), open);
    assert_eq!(
        without_block_comments("x /* a\nb */ y /**\n * c\n */z"),
        "x     \n     y    \n    \n   z"
    );
}

/// Attacks: a `/*` in a line comment (`// strips /* … */`) or in a string it
/// does not close in (`line.startsWith('/* ')`) opens no block comment, so the
/// script named on the lines up to a later `*/` stays what the verify runs.
#[test]
fn attack_a_comment_opened_in_a_line_comment_or_a_string_hides_no_script() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "checks/check.sh", "#!/bin/sh\nexit 0\n");
    for runner in [
        "// drops /* banners\nconst { execSync } = require('child_process');\nexecSync('sh checks/check.sh');\n// and their */ ends\n",
        "const keep = (l) => !l.startsWith('/* ');\nrequire('child_process').execSync('sh checks/check.sh');\nconst end = (l) => l.endsWith(' */');\n",
        "package main\n\n// Lines like /* x\nfunc main() { run(\"sh\", \"checks/check.sh\") }\n// */ are skipped\n",
    ] {
        let name = if runner.starts_with("package") {
            "run.go"
        } else {
            "run.js"
        };
        write(root, name, runner);
        let line = if name == "run.go" {
            "go run run.go"
        } else {
            "node run.js"
        };
        let found = verify_runs(root, &verify(line));
        assert!(has(&found, "checks/check.sh"), "{runner}: {found:?}");
    }
}

/// Honest twin: a block comment closed in the string that opens it (a banner)
/// or on code lines is still blanked, a line comment before it or not.
#[test]
fn a_block_comment_in_a_banner_string_or_after_a_line_comment_is_blanked() {
    let text = "// a note\nconst b = '/* v1 see ./x.sh */\\n'; /* run y.sh\n */ go();\n";
    let blanked = without_block_comments(text);
    assert!(
        !blanked.contains("x.sh") && !blanked.contains("y.sh"),
        "{blanked}"
    );
    assert!(blanked.contains("go();"), "{blanked}");
    assert_eq!(blanked.lines().count(), text.lines().count());
}

/// The type tests' own machinery (`Expect<T extends true>`) in a declaration
/// file the type check's configuration lists.
const EXPECT: &str = "export type Expect<T extends true> = T;\nexport type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;\n";

/// Attack: a verify that is a type check (`tsc -p tsconfig.test.json`, `tsd`,
/// `vue-tsc`) compiles the declarations its configuration lists; one that is
/// the type tests' machinery, gutted (`type Expect<T> = T`), makes every type
/// test pass. A declaration a type checker's configuration names is what the
/// check rests on, unless it is the package's own types; a `types` field the
/// work writes into package.json makes none its own.
#[test]
fn attack_a_declaration_a_type_check_compiles_stays() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "tsconfig.test.json",
        r#"{"compilerOptions": {"noEmit": true}, "files": ["types/expect.d.ts", "test/types.test.ts"]}"#,
    );
    write(root, "types/expect.d.ts", EXPECT);
    write(
        root,
        "test/types.test.ts",
        "import type { Expect, Equal } from '../types/expect';\ntype _ = Expect<Equal<1, 1>>;\n",
    );
    write(root, "package.json", r#"{"types": "types/expect.d.ts"}"#);
    for line in [
        "npx tsc -p tsconfig.test.json",
        "npx vue-tsc --noEmit -p tsconfig.test.json",
    ] {
        let found = verify_runs(root, &verify(line));
        assert!(has(&found, "types/expect.d.ts"), "{line}: {found:?}");
    }
}

/// Honest twin: the package's own declarations (a root `index.d.ts`, one in a
/// code folder) a type check's configuration lists are the work it checks.
#[test]
fn the_packages_own_declarations_a_type_check_lists_are_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "tsconfig.json",
        r#"{"files": ["index.d.ts", "src/shim.d.ts", "lib/types/a.d.mts", "test/a.test.ts"]}"#,
    );
    for rel in ["index.d.ts", "src/shim.d.ts", "lib/types/a.d.mts"] {
        write(root, rel, "export declare const x: number;\n");
    }
    write(root, "test/a.test.ts", "import { x } from '..';\n");
    let found = verify_runs(root, &verify("npx tsc -p tsconfig.json"));
    for rel in ["index.d.ts", "src/shim.d.ts", "lib/types/a.d.mts"] {
        assert!(!has(&found, rel), "{rel}: {found:?}");
    }
}

/// Attacks: a runner's name in a manifest's comment or an author's `name`
/// makes no project that runner: a vendored `pytest.py` stays the check, at
/// the start (read by the same words) as now.
#[test]
fn attack_a_runner_named_only_in_a_comment_or_an_author_stays() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "pytest.py", "import sys\nsys.exit(0)\n");
    let runs = || verify_runs(root, &verify("python3 -m pytest -q"));
    let shapes: [&[(&str, &str)]; 4] = [
        &[("setup.py", "# was: name='pytest'\nsetup(name='myapp')\n")],
        &[(
            "pyproject.toml",
            "[project]\nname = \"myapp\"\nauthors = [{name = \"pytest\"}]\n",
        )],
        &[(
            "pyproject.toml",
            "[project]\nname = \"myapp\"\n# name = \"pytest\"\n",
        )],
        &[("setup.cfg", "[metadata]\nname = myapp  # name = pytest\n")],
    ];
    for shape in shapes {
        for manifest in ["setup.py", "setup.cfg", "pyproject.toml"] {
            let _ = fs::remove_file(root.join(manifest));
        }
        for (rel, text) in shape {
            write(root, rel, text);
        }
        assert!(has(&runs(), "pytest.py"), "{shape:?}");
    }
}

/// Honest twin: pytest's own repository, named so in each of its manifests
/// (a comment beside the name, and a plugin's `name` key elsewhere in
/// setup.py's call, said nothing against it).
#[test]
fn a_runner_named_so_in_every_manifest_is_the_product() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "pytest.py", "def main():\n    return 0\n");
    write(
        root,
        "setup.cfg",
        "[metadata]\nname = pytest  # the runner\n",
    );
    write(
        root,
        "pyproject.toml",
        "[project]\nname = \"pytest\"\nauthors = [{name = \"Holger Krekel\"}]\n",
    );
    write(root, "setup.py", "setup(name='pytest')  # see setup.cfg\n");
    let found = verify_runs(root, &verify("python3 -m pytest -q"));
    assert!(!has(&found, "pytest.py"), "{found:?}");
}

/// Manifests that disagree (setup.py `pytest`, pyproject `myapp`) name no
/// runner's repository either; but `attack_a_runner_the_repository_does_not_ship_or_a_check_it_names_stays`
/// reads a setup.py renamed to `pytest` beside a pyproject naming `myapp` as
/// pytest's own, so this is left to the lead.
#[test]
#[ignore = "known hole: manifests that disagree still make a vendored runner the product; the existing attack_a_runner_the_repository_does_not_ship_or_a_check_it_names_stays asserts that shape is the product"]
fn attack_a_runner_named_in_one_of_two_disagreeing_manifests_stays() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "pytest.py", "import sys\nsys.exit(0)\n");
    write(root, "setup.cfg", "[metadata]\nname = pytest\n");
    write(root, "pyproject.toml", "[project]\nname = \"myapp\"\n");
    let found = verify_runs(root, &verify("python3 -m pytest -q"));
    assert!(has(&found, "pytest.py"), "{found:?}");
}

proptest::proptest! {
    /// Any text's block comments are blanked without a panic, its lines kept.
    #[test]
    fn any_text_s_block_comments_are_blanked_without_a_panic(
        text in "(/\\*|\\*/|//|'|\"|`|\\\\|\n| |x|é)*",
    ) {
        let blanked = without_block_comments(&text);
        proptest::prop_assert_eq!(blanked.lines().count(), text.lines().count());
    }
}

/// Attack: a script's line that runs two Python modules (`python3 -m pytest -q
/// && python3 -m checks`) runs both: the second module is a check the verify
/// rests on, in the runner's own repository as in any other.
#[test]
fn attack_a_second_module_on_a_scripts_line_stays() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "checks.py", "import sys\nsys.exit(0)\n");
    write(root, "pytest.py", "def main():\n    return 0\n");
    for (name, sep) in [("myapp", " && "), ("pytest", "; "), ("myapp", " || ")] {
        write(root, "setup.py", &format!("setup(name='{name}')\n"));
        write(
            root,
            "run_tests.sh",
            &format!("#!/bin/sh\npython3 -m pytest -q{sep}python3 -m checks\n"),
        );
        let found = verify_runs(root, &verify("sh run_tests.sh"));
        assert!(has(&found, "checks.py"), "{name} {sep}: {found:?}");
    }
}

/// Honest twin: in the runner's own repository the runner a script's line
/// starts beside a check is still the product, whichever command comes first.
#[test]
fn the_runner_beside_a_check_on_a_scripts_line_is_still_the_product() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "setup.py", "setup(name='pytest')\n");
    write(root, "checks.py", "import sys\nsys.exit(0)\n");
    write(root, "pytest.py", "def main():\n    return 0\n");
    for line in [
        "python3 -m checks && python3 -m pytest -q",
        "python3 -m pytest -q | tee log",
    ] {
        write(root, "run_tests.sh", &format!("#!/bin/sh\n{line}\n"));
        let found = verify_runs(root, &verify("sh run_tests.sh"));
        assert!(!has(&found, "pytest.py"), "{line}: {found:?}");
    }
}

/// Attack: a check module a Python runner starts in a list of arguments
/// (`subprocess.run([sys.executable, "-m", "checks"])`) is a check the verify
/// rests on, as on a command line.
#[test]
fn attack_a_module_started_from_a_list_of_arguments_stays() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "checks.py", "import sys\nsys.exit(0)\n");
    for call in [
        "subprocess.run([\"python3\", \"-m\", \"checks\"], check=True)",
        "subprocess.check_call([sys.executable, '-m', 'checks'])",
    ] {
        write(root, "run.py", &format!("import subprocess, sys\n{call}\n"));
        let found = verify_runs(root, &verify("python3 run.py"));
        assert!(has(&found, "checks.py"), "{call}: {found:?}");
    }
}

/// Honest twin: in the runner's own repository the runner a list of arguments
/// starts is the product, as on a command line.
#[test]
fn the_runner_started_from_a_list_of_arguments_in_its_repository_is_the_product() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "setup.py", "setup(name='pytest')\n");
    write(root, "pytest.py", "def main():\n    return 0\n");
    write(
        root,
        "run.py",
        "import subprocess, sys\nsubprocess.check_call([sys.executable, '-m', 'pytest', '-q'])\n",
    );
    let found = verify_runs(root, &verify("python3 run.py"));
    assert!(!has(&found, "pytest.py"), "{found:?}");
    assert!(has(&found, "run.py"), "{found:?}");
}

/// Helper 123's variant: the configuration names the declarations' folder
/// (`"include": ["types", "test"]`), not the file; tsc compiles every
/// declaration under it all the same, so a gutted `types/expect.d.ts` is one
/// the check rests on.
#[test]
fn attack_a_declaration_in_a_folder_a_type_check_includes_stays() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "tsconfig.test.json",
        r#"{"compilerOptions": {"noEmit": true}, "include": ["types", "test"]}"#,
    );
    write(root, "types/expect.d.ts", EXPECT);
    write(
        root,
        "test/types.test.ts",
        "import type { Expect, Equal } from '../types/expect';\ntype _ = Expect<Equal<1, 1>>;\n",
    );
    let found = verify_runs(root, &verify("npx tsc -p tsconfig.test.json"));
    assert!(has(&found, "types/expect.d.ts"), "{found:?}");
    // Honest twin: the package's own declarations in a code folder it
    // includes are the work it checks.
    write(
        root,
        "tsconfig.test.json",
        r#"{"compilerOptions": {"noEmit": true}, "include": ["src", "test"]}"#,
    );
    write(
        root,
        "src/index.d.ts",
        "export declare function f(): number;\n",
    );
    let found = verify_runs(root, &verify("npx tsc -p tsconfig.test.json"));
    assert!(!has(&found, "src/index.d.ts"), "{found:?}");
}

/// Helper 123's variant past the folder mend: `"include": ["types/**/*"]` (a
/// glob of any depth) or a declaration two folders down is compiled too, but
/// only one folder level is read.
#[test]
#[ignore = "known hole: a type check's include glob of any depth (types/**/*) or a nested folder's declarations are not read"]
fn attack_a_declaration_a_deep_include_glob_compiles_stays() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "tsconfig.test.json",
        r#"{"compilerOptions": {"noEmit": true}, "include": ["types/**/*", "test"]}"#,
    );
    write(root, "types/util/expect.d.ts", EXPECT);
    let found = verify_runs(root, &verify("npx tsc -p tsconfig.test.json"));
    assert!(has(&found, "types/util/expect.d.ts"), "{found:?}");
}
