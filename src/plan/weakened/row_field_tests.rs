//! Rule `assertions-removed`, a table-row form: an expected field (`expect…`,
//! `want…`) taken out of a row of a Go test table that stays, while the test
//! still reads it, so the check the test makes on that field is skipped for
//! the row. A row removed whole, a value changed, a field dropped with the
//! check that read it or one the test fills in when left out, a zero value
//! dropped and a row renamed are not this form.

use super::*;

const STATIC: &str = "package middleware\n\nimport \"testing\"\n\nfunc TestStatic(t *testing.T) {\n\tvar testCases = []struct {\n\t\tname           string\n\t\twhenURL        string\n\t\texpectLength   string\n\t\texpectCode     int\n\t}{\n\t\t{\n\t\t\tname:         \"ok, serve index\",\n\t\t\twhenURL:      \"/\",\n\t\t\texpectCode:   200,\n\t\t\texpectLength: \"12\",\n\t\t},\n\t\t{\n\t\t\tname:         \"ok, serve file from subdirectory\",\n\t\t\twhenURL:      \"/assets/readme.md\",\n\t\t\texpectCode:   200,\n\t\t\texpectLength: \"54\",\n\t\t},\n\t}\n\tfor _, tc := range testCases {\n\t\tt.Run(tc.name, func(t *testing.T) {\n\t\t\trec := serve(tc.whenURL)\n\t\t\tif rec.Code != tc.expectCode {\n\t\t\t\tt.Errorf(\"code %d\", rec.Code)\n\t\t\t}\n\t\t\tif tc.expectLength != \"\" && rec.Length != tc.expectLength {\n\t\t\t\tt.Errorf(\"length %s\", rec.Length)\n\t\t\t}\n\t\t})\n\t}\n}\n";

fn dropped() -> String {
    STATIC.replacen("\t\t\texpectLength: \"54\",\n", "", 1)
}

#[test]
fn an_expected_field_dropped_from_a_row_that_stays() {
    let found = found_in("middleware/static_test.go", STATIC, &dropped());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(kinds::high(&found[0]), "{found:?}");
    let only = STATIC.replacen("\t\t\texpectLength: \"12\",\n", "", 1);
    let both = found_in(
        "middleware/static_test.go",
        &only,
        &dropped().replacen("\t\t\texpectLength: \"12\",\n", "", 1),
    );
    assert!(both.iter().any(kinds::high), "{both:?}");
    insta::assert_snapshot!(found[0].to_string(), @"middleware/static_test.go: 1 expected field dropped from rows of a test table that stay (`expectLength` of \"ok, serve file from subdirectory\", line 18), which the test still reads, so it checks less for them");
}

#[test]
fn a_row_removed_changed_renamed_or_a_field_gone_from_every_row_is_not_this_form() {
    let quiet_from = |before: &str, after: &str| {
        assert_ne!(after, before);
        let found = found_in("middleware/static_test.go", before, after);
        assert!(
            found
                .iter()
                .all(|f| !f.to_string().contains("expected field")),
            "{found:?}"
        );
    };
    let quiet = |after: &str| quiet_from(STATIC, after);
    let row = "\t\t{\n\t\t\tname:         \"ok, serve file from subdirectory\",\n\t\t\twhenURL:      \"/assets/readme.md\",\n\t\t\texpectCode:   200,\n\t\t\texpectLength: \"54\",\n\t\t},\n";
    quiet(&STATIC.replacen(row, "", 1));
    quiet(&STATIC.replacen("expectLength: \"54\"", "expectLength: \"56\"", 1));
    quiet(&dropped().replacen("from subdirectory", "from a subdirectory", 1));
    let unread = STATIC
        .replace("\t\t\texpectLength: \"12\",\n", "")
        .replace("\t\t\texpectLength: \"54\",\n", "")
        .replace("\t\texpectLength   string\n", "")
        .replace(
            "tc.expectLength != \"\" && rec.Length != tc.expectLength",
            "rec.Length == \"\"",
        );
    quiet(&unread);
    let defaulted = dropped().replacen(
        "\t\t\trec := serve(tc.whenURL)\n",
        "\t\t\tif tc.expectLength == \"\" {\n\t\t\t\ttc.expectLength = \"54\"\n\t\t\t}\n\t\t\trec := serve(tc.whenURL)\n",
        1,
    );
    quiet(&defaulted);
    let none_set = STATIC.replace("expectLength: \"54\"", "expectLength: \"\"");
    quiet_from(
        &none_set,
        &none_set.replacen("\t\t\texpectLength: \"\",\n", "", 1),
    );
}
