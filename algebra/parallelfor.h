#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace parallax {

/// Runs body(begin, end, worker) over [0, count) in blocks of `block` indices on up to `workers`
/// threads (0: one per core), the calling thread included. Blocks are handed out dynamically, so
/// uneven rows balance. The algebra may not link Qt6::Concurrent (ARCHITECTURE.md), hence plain
/// std::thread. Returns the number of workers used; worker indices are 0..returned-1.
template <typename Body> std::size_t parallelFor(std::size_t count, std::size_t block, int workers, Body&& body)
{
    block = std::max<std::size_t>(1, block);
    const std::size_t blocks = (count + block - 1) / block;
    std::size_t n = workers > 0 ? static_cast<std::size_t>(workers) : std::max(1u, std::thread::hardware_concurrency());
    n = std::max<std::size_t>(1, std::min(n, blocks));
    std::atomic<std::size_t> next { 0 };
    std::exception_ptr failure;
    std::atomic<bool> failed { false };
    auto run = [&](std::size_t worker) {
        try {
            for (std::size_t b = next++; b < blocks && !failed; b = next++)
                body(b * block, std::min(count, (b + 1) * block), worker);
        } catch (...) {
            if (!failed.exchange(true))
                failure = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(n - 1);
    for (std::size_t w = 1; w < n; ++w)
        threads.emplace_back(run, w);
    run(0);
    for (auto& t : threads)
        t.join();
    if (failure)
        std::rethrow_exception(failure);
    return n;
}

/// The number of workers parallelFor would use for `count` indices in blocks of `block`.
inline std::size_t parallelWorkers(std::size_t count, std::size_t block, int workers)
{
    const std::size_t blocks = (count + std::max<std::size_t>(1, block) - 1) / std::max<std::size_t>(1, block);
    const std::size_t n
        = workers > 0 ? static_cast<std::size_t>(workers) : std::max(1u, std::thread::hardware_concurrency());
    return std::max<std::size_t>(1, std::min(n, blocks));
}

} // namespace parallax
