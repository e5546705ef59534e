extension Statistics {
    /// The median of `values` exactly as `quantile(values.sorted(), 0.5)` gives it (the mean of the
    /// middle two of an even count), found by selection in expected linear time instead of a sort;
    /// `values` is left reordered. The bootstrap takes thousands of medians of resamples.
    static func median(reordering values: inout [Double]) -> Double {
        precondition(!values.isEmpty, "the median of no values")
        let count = values.count, upper = count / 2
        return values.withUnsafeMutableBufferPointer { buffer in
            select(upper, in: buffer)
            let high = buffer[upper]
            guard count % 2 == 0 else { return high }
            // Everything before `upper` is at most `high`: the lower middle value is the largest of them.
            var low = buffer[0]
            for index in 1 ..< upper where buffer[index] > low { low = buffer[index] }
            return low + (high - low) * 0.5
        }
    }

    /// Reorders `buffer` so that `buffer[k]` holds the value a sort would put there, with none
    /// larger before it and none smaller after it (quickselect, three-way partitions so that equal
    /// values, common among timings, cost no more than distinct ones).
    private static func select(_ k: Int, in buffer: UnsafeMutableBufferPointer<Double>) {
        var low = 0, high = buffer.count - 1
        while low < high {
            let middle = low + (high - low) / 2
            let (a, b, c) = (buffer[low], buffer[middle], buffer[high])
            let pivot = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
            var less = low, index = low, greater = high
            while index <= greater {
                if buffer[index] < pivot {
                    buffer.swapAt(less, index)
                    less += 1
                    index += 1
                } else if buffer[index] > pivot {
                    buffer.swapAt(index, greater)
                    greater -= 1
                } else {
                    index += 1
                }
            }
            if k < less { high = less - 1 } else if k > greater { low = greater + 1 } else { return }
        }
    }
}
