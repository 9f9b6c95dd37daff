extension String {
    /// The text followed by spaces up to `width` characters; longer text is left as it is.
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
