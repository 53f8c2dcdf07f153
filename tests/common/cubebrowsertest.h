// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// The set-up of the CUBE view's tests (tst_cubebrowser, tst_topologyview): a trial opened into a CUBE
// browser the way the main window opens it.

#include "tests/common/testutil.h"
#include "views/cube/cubebrowser.h"
#include "views/selectionstate.h"

#include <QSize>
#include <QString>
#include <memory>

namespace parallax::test {

/// The trial at `path` in a selection state, and a CUBE browser made on that state afterwards; the
/// browser is resized to `size` when it is valid, shown when `show` is set, and has built and computed
/// its panes. The browser goes before the state, as two locals declared in this order would.
struct OpenedCubeBrowser {
    explicit OpenedCubeBrowser(const QString& path, QSize size = {}, bool show = false)
    {
        state.setTrial(mustLoad(path));
        browser = std::make_unique<CubeBrowser>(&state);
        if (size.isValid())
            browser->resize(size);
        if (show)
            browser->show();
        browser->updateNow();
        browser->finishComputing();
    }

    SelectionState state;
    std::unique_ptr<CubeBrowser> browser;
};

} // namespace parallax::test
