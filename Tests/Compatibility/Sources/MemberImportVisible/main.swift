import AsyncAlgorithms

// With MemberImportVisibility this file, which imports AsyncAlgorithms only, gets its
// operators, and OnlySwitchyard.swift, which imports SwitchyardStreams only, gets ours, unqualified.

let fromAsyncAlgorithms: AsyncAlgorithms.AsyncRemoveDuplicatesSequence<AsyncSyncSequence<[Int]>> =
    [1, 1, 2].async.removeDuplicates()
var seen: [Int] = []
for await value in fromAsyncAlgorithms { seen.append(value) }
precondition(seen == [1, 2], "AsyncAlgorithms' removeDuplicates gave \(seen)")
let ours = await onlySwitchyardUnqualified()
precondition(ours == [1, 2, 3], "our removeDuplicates gave \(ours)")
print("MemberImportVisibility: each file gets the operators of the module it imports")
