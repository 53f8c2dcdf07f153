// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/derived/derivedmetricdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace parallax {

DerivedMetricDialog::DerivedMetricDialog(std::shared_ptr<const Trial> trial, QWidget* parent)
    : QDialog(parent)
    , m_trial(std::move(trial))
{
    setWindowTitle(tr("Derive a Metric — %1").arg(m_trial->name()));
    auto* layout = new QVBoxLayout(this);

    auto* form = new QFormLayout;
    m_name = new QLineEdit;
    m_name->setPlaceholderText(tr("e.g. FLOPS (empty: the expression itself)"));
    m_unit = new QLineEdit;
    m_unit->setPlaceholderText(tr("optional, e.g. 1/s"));
    m_expression = new QLineEdit;
    m_expression->setPlaceholderText(
        tr("\"PAPI_FP_OPS\" / \"TIME\" — metric names in double quotes, numbers, + − * / ( )"));
    m_expression->setMinimumWidth(460);
    m_mode = new QComboBox;
    m_mode->addItem(tr("IEEE arithmetic (x/0 = ±inf, 0/0 = NaN, negatives kept)"));
    m_mode->addItem(tr("ParaProf-compatible (a − b ≥ 0, x/0 = 0)"));
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Unit:"), m_unit);
    form->addRow(tr("&Expression:"), m_expression);
    form->addRow(tr("&Arithmetic:"), m_mode);
    layout->addLayout(form);

    // One button per metric of the trial, then the operators.
    auto* metrics = new QGroupBox(tr("Metrics of this trial"));
    auto* grid = new QGridLayout(metrics);
    for (std::size_t m = 0; m < m_trial->metricCount(); ++m) {
        const QString name = m_trial->metric(MetricId(m)).name;
        auto* button = new QPushButton(name);
        button->setToolTip(tr("Insert \"%1\"").arg(name));
        connect(
            button, &QPushButton::clicked, this, [this, name] { insert(QLatin1Char('"') + name + QLatin1Char('"')); });
        grid->addWidget(button, static_cast<int>(m / 4), static_cast<int>(m % 4));
    }
    layout->addWidget(metrics);
    auto* operators = new QHBoxLayout;
    for (const QString& op : { QStringLiteral("+"), QStringLiteral("−"), QStringLiteral("*"), QStringLiteral("/"),
             QStringLiteral("("), QStringLiteral(")") }) {
        auto* button = new QPushButton(op);
        button->setMaximumWidth(44);
        const QString text
            = op == QStringLiteral("−") ? QStringLiteral(" - ") : QLatin1Char(' ') + op + QLatin1Char(' ');
        connect(button, &QPushButton::clicked, this, [this, text] { insert(text); });
        operators->addWidget(button);
    }
    operators->addStretch();
    auto* file = new QPushButton(tr("Load Definitions from a &File…"));
    file->setToolTip(tr("One NAME = EXPRESSION per line; # starts a comment"));
    connect(file, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Derived Metric Definitions"));
        if (!path.isEmpty())
            loadFile(path);
    });
    operators->addWidget(file);
    layout->addLayout(operators);

    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Add the Metric"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    for (QLineEdit* edit : { m_name, m_unit, m_expression })
        connect(edit, &QLineEdit::textChanged, this, [this] {
            m_file.clear();
            check();
        });
    connect(m_mode, &QComboBox::currentIndexChanged, this, &DerivedMetricDialog::check);
    check();
}

DerivedMode DerivedMetricDialog::mode() const
{
    return m_mode->currentIndex() == 1 ? DerivedMode::ParaProf : DerivedMode::Ieee;
}

void DerivedMetricDialog::setDefinition(const QString& name, const QString& expression)
{
    m_name->setText(name);
    m_expression->setText(expression);
}

QString DerivedMetricDialog::status() const { return m_status->text(); }

bool DerivedMetricDialog::isAcceptable() const { return m_ok->isEnabled(); }

void DerivedMetricDialog::insert(const QString& text)
{
    m_expression->insert(text);
    m_expression->setFocus();
}

bool DerivedMetricDialog::loadFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_status->setText(tr("<b>%1</b>: %2").arg(path.toHtmlEscaped(), file.errorString().toHtmlEscaped()));
        m_ok->setEnabled(false);
        return false;
    }
    ExpressionError error;
    const auto parsed = parseDefinitionFile(QString::fromUtf8(file.readAll()), &error);
    if (!parsed) {
        m_status->setText(tr("<b>%1</b>, %2").arg(path.toHtmlEscaped(), error.toString().toHtmlEscaped()));
        m_ok->setEnabled(false);
        return false;
    }
    // Check each expression now (deriveMetrics would too, later): the line and column of a mistake.
    for (const DerivedMetricDefinition& d : *parsed) {
        ExpressionError expressionError;
        if (!MetricExpression::parse(d.expression, mode(), &expressionError)) {
            expressionError.line = d.line;
            if (expressionError.position >= 0)
                expressionError.position += d.expressionOffset;
            m_status->setText(QStringLiteral("<span style='color:#b2182b'><b>%1</b>, %2</span>")
                                  .arg(path.toHtmlEscaped(), expressionError.toString().toHtmlEscaped()));
            m_ok->setEnabled(false);
            return false;
        }
    }
    m_definitions = *parsed;
    m_file = path;
    QStringList names;
    for (const auto& d : m_definitions)
        names.append(d.name.isEmpty() ? d.expression : d.name);
    m_status->setText(tr("%1 definition(s) from %2: %3")
                          .arg(m_definitions.size())
                          .arg(path.toHtmlEscaped(), names.join(QStringLiteral(", ")).toHtmlEscaped()));
    m_ok->setEnabled(!m_definitions.empty());
    return !m_definitions.empty();
}

void DerivedMetricDialog::check()
{
    m_definitions.clear();
    const QString expression = m_expression->text().trimmed();
    if (expression.isEmpty()) {
        m_status->setText(tr("Type an expression, or click the metrics and operators."));
        m_ok->setEnabled(false);
        return;
    }
    ExpressionError error;
    const auto parsed = MetricExpression::parse(expression, mode(), &error);
    if (!parsed) {
        m_status->setText(
            QStringLiteral("<span style='color:#b2182b'>%1</span>").arg(error.toString().toHtmlEscaped()));
        m_ok->setEnabled(false);
        return;
    }
    for (const QString& metric : parsed->metrics()) {
        if (!m_trial->findMetric(metric).isValid()) {
            m_status->setText(QStringLiteral("<span style='color:#b2182b'>%1</span>")
                                  .arg(tr("this trial has no metric \"%1\"").arg(metric).toHtmlEscaped()));
            m_ok->setEnabled(false);
            return;
        }
    }
    const QString name = m_name->text().trimmed().isEmpty() ? parsed->autoName() : m_name->text().trimmed();
    if (m_trial->findMetric(name).isValid()) {
        m_status->setText(QStringLiteral("<span style='color:#b2182b'>%1</span>")
                              .arg(tr("the trial already has a metric \"%1\"").arg(name).toHtmlEscaped()));
        m_ok->setEnabled(false);
        return;
    }
    DerivedMetricDefinition definition;
    definition.name = name;
    definition.unit = m_unit->text().trimmed();
    definition.expression = expression;
    m_definitions.push_back(definition);
    m_status->setText(tr("New metric <b>%1</b> = %2, per thread and event on exclusive and inclusive values.")
                          .arg(name.toHtmlEscaped(), expression.toHtmlEscaped()));
    m_ok->setEnabled(true);
}

} // namespace parallax
