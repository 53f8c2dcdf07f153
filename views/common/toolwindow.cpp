// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/toolwindow.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QMainWindow>
#include <QTimer>
#include <QVBoxLayout>

namespace parallax {

void showToolWindow(QMainWindow* window, QWidget* parent)
{
    window->setAttribute(Qt::WA_DeleteOnClose);
    if (parent)
        window->setWindowFlag(Qt::Window);
    window->show();
}

QVBoxLayout* addCentralLayout(QMainWindow* window)
{
    auto* central = new QWidget(window);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    window->setCentralWidget(central);
    return layout;
}

ControlBarLayout addControlBar(QWidget* widget, int spacing, const QMargins& controlMargins)
{
    auto* column = new QVBoxLayout(widget);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(spacing);
    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(controlMargins);
    column->addLayout(controls);
    return { column, controls };
}

void addLabelled(QBoxLayout* layout, const QString& label, QWidget* widget)
{
    if (!label.isEmpty()) {
        auto* l = new QLabel(label, widget->parentWidget());
        l->setBuddy(widget);
        layout->addWidget(l);
    }
    layout->addWidget(widget);
}

void renderWhenSettled(QWidget* window, const QSize& size, int delayMs, std::function<QString()> render,
    std::function<void(const QString&)> done)
{
    QTimer::singleShot(delayMs, window, [window, size, render = std::move(render), done = std::move(done)] {
        if (size.isValid())
            window->resize(size);
        if (window->layout())
            window->layout()->activate();
        done(render());
    });
}

} // namespace parallax
