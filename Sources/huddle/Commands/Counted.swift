/// `1 file`, `3 files`: a count and its noun, for the commands' summaries.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
