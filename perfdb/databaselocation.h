#pragma once

#include <QString>

namespace parallax {

/// Where the embedded SQLite experiment database lives by default:
/// $XDG_DATA_HOME/parallax/parallax.sqlite (usually ~/.local/share/parallax/parallax.sqlite).
QString defaultDatabasePath();

} // namespace parallax
