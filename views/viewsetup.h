// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <Qt>
#include <functional>

class QAbstractItemModel;
class QCheckBox;
class QFont;
class QIODevice;
class QLineEdit;
class QMenu;
class QModelIndex;
class QSortFilterProxyModel;
class QTreeView;
class QWidget;

namespace parallax {

/// Models return raw values (doubles, counts, names) under this role; the proxy sorts on it,
/// never on display strings.
inline constexpr int SortRole = Qt::UserRole + 1;
/// A second sort key (a double) where SortRole ties: the proxy of setupTreeView() compares it
/// when two rows' SortRole values are equal (e.g. the imbalance columns tie-break by lost time).
inline constexpr int TieBreakRole = Qt::UserRole + 100;

/// Options for setupTreeView().
struct ViewSetupOptions {
    /// Column the search filters on; -1 searches all columns.
    int filterColumn = 0;
    /// Placeholder text of the search line edit.
    QString placeholder;
    /// Initial sort; a negative column leaves the view unsorted.
    int sortColumn = -1;
    Qt::SortOrder sortOrder = Qt::DescendingOrder;
    /// What the count beside the search field counts (singular, plural): "27 events",
    /// "3 of 12 call paths". Trees count their top-level rows, so say what those are.
    QString countNoun = QStringLiteral("row");
    QString countNounPlural = QStringLiteral("rows");
    /// Header texts on two lines ("Exclusive" over "(ms)", "Imbalance" over "%") so that wide
    /// tables fit; copies and CSV keep them on one line.
    bool twoLineHeaders = false;
};

/// What setupTreeView() builds around a QTreeView: the sort/filter proxy, the debounced search
/// line with its regex toggle, and a container widget holding both.
///
/// Every table and tree in Parallax goes through setupTreeView() so that they all sort on
/// SortRole, search the same way, hide columns from the header menu, copy with Ctrl+C as
/// tab-separated text and export what is shown as CSV.
struct ViewSetup {
    QWidget* widget = nullptr; ///< search bar above the view; put this in a layout
    QTreeView* view = nullptr;
    QSortFilterProxyModel* proxy = nullptr;
    QLineEdit* search = nullptr;
    QCheckBox* regex = nullptr;

    /// The visible columns of the selected rows, tab-separated, one line per row, in view
    /// order. With header, the column titles come first.
    static QString selectionAsText(const QTreeView* view, bool withHeader = false);
    /// Writes the shown table (visible columns in visual order, filtered and sorted rows, children
    /// of tree rows included) as RFC 4180 CSV with a header line. Returns false and sets error on
    /// failure.
    static bool writeCsv(const QTreeView* view, QIODevice* device, QString* error = nullptr);
    static bool writeCsv(const QTreeView* view, const QString& fileName, QString* error = nullptr);
    /// Asks for a file name and writes the CSV; shows a message box on failure. Returns true on
    /// success.
    static bool exportCsvInteractively(const QTreeView* view, QWidget* parent, const QString& suggestedName = {});
};

/// Puts a QSortFilterProxyModel between view and source, sets the view up as a sortable, multi-
/// selection table and wraps it with a search bar. The returned widget owns the search controls
/// and takes the view as a child; the proxy is parented to the view.
ViewSetup setupTreeView(QTreeView* view, QAbstractItemModel* source, const ViewSetupOptions& options = {});

/// Adds entries to the context menu of a view set up by setupTreeView(): `extend` gets the menu and
/// the source model's index under the mouse (valid only over a row) before the copy and export
/// entries (the source browser's "Show Source", views/source/showsource.h).
void extendViewMenu(QTreeView* view, std::function<void(QMenu* menu, const QModelIndex& sourceIndex)> extend);
/// Gives the name `column` of `view` the width the other columns leave, but never less than
/// `minWidth` (then the view scrolls sideways instead of squeezing the names to nothing). Follows
/// the view's size and the other columns' widths; the user can still drag the column wider.
void fitNameColumn(QTreeView* view, int column, int minWidth);

/// Every cell of a table model (top-level rows only) changed: new numbers, unit or locale, the
/// same rows. With `header`, the horizontal header too.
void emitCellsChanged(QAbstractItemModel* model, bool header = false);

/// `font` in bold (a model's FontRole for the rows and cells that stand out, bold titles).
QFont boldFont(QFont font);
/// The default font in bold.
QFont boldFont();

} // namespace parallax
