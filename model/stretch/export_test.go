package stretch

// SetRowCap sets the distances Best keeps (rowCap) and returns the old
// bound, for tests of the path without them.
func SetRowCap(n int) int {
	old := rowCap
	rowCap = n
	return old
}
