package avatar

// lipCases are the faces the lip paint tests (TestLipsShaped,
// TestLipsShadeUnder) look at: the panel's two defaults and two of its
// random faces, random-03 (feminine) and random-14 (masculine). One
// table, so the tests cannot drift apart in what they check. A
// function, not a variable: the configurations are built when a test
// asks, not when the test binary starts.
func lipCases() []namedConfig {
	return []namedConfig{
		{"default-female", Default(Feminine)}, {"default-male", Default(Masculine)},
		{"random-03", Random(103)}, {"random-14", Random(114)},
	}
}
