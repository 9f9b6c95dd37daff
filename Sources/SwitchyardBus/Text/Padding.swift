extension String {
    /// The text followed by spaces up to `width` characters; longer text is left as it is.
    /// For the command line's and the bench's columns.
    package func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
