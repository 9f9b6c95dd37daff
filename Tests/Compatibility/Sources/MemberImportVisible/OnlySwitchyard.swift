import SwitchyardStreams

// Imports only SwitchyardStreams: with MemberImportVisibility AsyncAlgorithms' members are
// not visible here, so the unqualified calls get ours although the target links it.

func onlySwitchyardUnqualified() async -> [Int] {
    let numbers = AsyncElements([1, 1, 2, 3, 3])
    let deduplicated: SwitchyardStreams.AsyncRemoveDuplicatesSequence<AsyncElements<Int, Never>> = numbers.removeDuplicates()
    let debounced: SwitchyardStreams.AsyncDebounceSequence<AsyncElements<Int, Never>, ContinuousClock> =
        numbers.debounce(for: .milliseconds(1))
    let shared: AsyncShareSequence<AsyncElements<Int, Never>> = numbers.share()
    _ = (debounced, shared)
    var seen: [Int] = []
    for await value in deduplicated { seen.append(value) }
    return seen
}
