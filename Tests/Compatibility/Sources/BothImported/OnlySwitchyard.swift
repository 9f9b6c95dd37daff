import SwitchyardStreams

// This file imports only SwitchyardStreams, but its target links AsyncAlgorithms and another
// file imports it: without MemberImportVisibility, member lookup leaks across files, so an
// unqualified `debounce`, `share` or `removeDuplicates` here would be AsyncAlgorithms' (ours
// are disfavored). The module selector (Swift 6.3) names ours; free functions take the module
// name. The annotations check which one won.

func onlySwitchyardWithModuleSelectors() async -> [Int] {
    let numbers = AsyncElements([1, 1, 2, 3, 3])
    let deduplicated: SwitchyardStreams.AsyncRemoveDuplicatesSequence<AsyncElements<Int, Never>> =
        numbers.SwitchyardStreams::removeDuplicates()
    let debounced: SwitchyardStreams.AsyncDebounceSequence<AsyncElements<Int, Never>, ContinuousClock> =
        numbers.SwitchyardStreams::debounce(for: .milliseconds(1))
    let shared: AsyncShareSequence<AsyncElements<Int, Never>> = numbers.SwitchyardStreams::share()
    let zipped: SwitchyardStreams.AsyncZipSequence<(Int, Int), Never> = SwitchyardStreams.zip(numbers, numbers)
    _ = (debounced, shared, zipped)
    var seen: [Int] = []
    for await value in deduplicated { seen.append(value) }
    return seen
}
