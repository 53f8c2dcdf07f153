// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#ifndef Q_MOC_RUN // Qt 6.4's moc cannot parse libstdc++ 12's <compare>/<concepts>
#include <compare>
#endif
#include <cstdint>
#include <functional>
#include <limits>

namespace parallax {

/// A 32-bit index that cannot be mixed up with an index of another kind.
/// The default-constructed value is invalid.
template <typename Tag> class TypedId {
public:
    static constexpr std::uint32_t InvalidValue = std::numeric_limits<std::uint32_t>::max();

    constexpr TypedId() = default;
    constexpr explicit TypedId(std::uint32_t index)
        : m_value(index)
    {
    }
    // size_t is unsigned long on the LP64 platforms Parallax builds on.
    constexpr explicit TypedId(unsigned long index)
        : m_value(static_cast<std::uint32_t>(index))
    {
    }

    constexpr std::uint32_t index() const { return m_value; }
    constexpr bool isValid() const { return m_value != InvalidValue; }
    constexpr auto operator<=>(const TypedId&) const = default;

private:
    std::uint32_t m_value = InvalidValue;
};

using EventId = TypedId<struct EventTag>;
using AtomicEventId = TypedId<struct AtomicEventTag>;
using ThreadIndex = TypedId<struct ThreadTag>;
using MetricId = TypedId<struct MetricTag>;
using GroupId = TypedId<struct GroupTag>;
using StringId = TypedId<struct StringTag>;

} // namespace parallax

template <typename Tag> struct std::hash<parallax::TypedId<Tag>> {
    std::size_t operator()(parallax::TypedId<Tag> id) const noexcept { return std::hash<std::uint32_t>()(id.index()); }
};
