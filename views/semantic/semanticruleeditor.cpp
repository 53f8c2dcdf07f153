// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticruleeditor.h"

#include "views/semantic/semanticcodeeditor.h"
#include "views/semantic/semanticrender.h"
#include "views/viewsetup.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <cmath>

namespace parallax {

using namespace parallax::semantic;

namespace {

constexpr int debounceMs = 350;

/// Where a key of the root object holds an array: the indices of '[' and of its ']'.
struct Span {
    qsizetype open = -1;
    qsizetype close = -1;
};

/// Scans JSON text (already known to be valid) for the array value of a root-object key, and
/// for the root object's closing brace.
Span findRootArray(const QString& text, const QString& key, qsizetype* rootClose = nullptr)
{
    Span span;
    int depth = 0;
    bool inString = false;
    bool escape = false;
    qsizetype stringStart = -1;
    QString lastString;
    bool expectValue = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (inString) {
            if (escape)
                escape = false;
            else if (c == QLatin1Char('\\'))
                escape = true;
            else if (c == QLatin1Char('"')) {
                inString = false;
                lastString = text.mid(stringStart + 1, i - stringStart - 1);
            }
            continue;
        }
        if (c == QLatin1Char('"')) {
            inString = true;
            stringStart = i;
        } else if (c == QLatin1Char(':') && depth == 1) {
            expectValue = lastString == key;
        } else if (c == QLatin1Char(',')) {
            expectValue = false;
        } else if (c == QLatin1Char('{') || c == QLatin1Char('[')) {
            if (depth == 1 && expectValue && c == QLatin1Char('[') && span.open < 0)
                span.open = i;
            expectValue = false;
            ++depth;
        } else if (c == QLatin1Char('}') || c == QLatin1Char(']')) {
            --depth;
            if (c == QLatin1Char(']') && depth == 1 && span.open >= 0 && span.close < 0)
                span.close = i;
            if (c == QLatin1Char('}') && depth == 0 && rootClose)
                *rootClose = i;
        }
    }
    return span;
}

qsizetype lastNonSpace(const QString& text, qsizetype before)
{
    qsizetype i = before - 1;
    while (i >= 0 && text[i].isSpace())
        --i;
    return i;
}

/// Compact JSON with a space after ':' and ',' (outside strings), for one-line items.
QString spaced(const QJsonObject& object)
{
    const QString compact = QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    QString out;
    bool inString = false;
    bool escape = false;
    for (const QChar c : compact) {
        out += c;
        if (inString) {
            if (escape)
                escape = false;
            else if (c == QLatin1Char('\\'))
                escape = true;
            else if (c == QLatin1Char('"'))
                inString = false;
            continue;
        }
        if (c == QLatin1Char('"'))
            inString = true;
        else if (c == QLatin1Char(':') || c == QLatin1Char(','))
            out += QLatin1Char(' ');
    }
    return out;
}

/// Appends items to the array of a root key (creating the key when missing); returns the
/// position of the first inserted item, or -1.
qsizetype appendToRootArray(QString& text, const QString& key, const QStringList& items)
{
    if (items.isEmpty())
        return -1;
    qsizetype rootClose = -1;
    const Span span = findRootArray(text, key, &rootClose);
    if (span.open >= 0 && span.close > span.open) {
        const qsizetype last = lastNonSpace(text, span.close);
        // The indentation of the first existing item, else two more than the key's line.
        QString indent = QStringLiteral("    ");
        if (last > span.open) {
            qsizetype first = span.open + 1;
            while (first < span.close && text[first].isSpace() && text[first] != QLatin1Char('\n'))
                ++first;
            if (first < span.close && text[first] == QLatin1Char('\n')) {
                qsizetype k = first + 1;
                while (k < span.close && (text[k] == QLatin1Char(' ') || text[k] == QLatin1Char('\t')))
                    ++k;
                indent = text.mid(first + 1, k - first - 1);
            }
        }
        QString insert;
        qsizetype at;
        if (last > span.open) {
            at = last + 1;
            insert = QStringLiteral(",\n") + indent + items.join(QStringLiteral(",\n") + indent);
            text.insert(at, insert);
            return at + 2 + indent.size();
        }
        // An empty array: put the items on their own lines.
        at = span.open + 1;
        insert = QStringLiteral("\n") + indent + items.join(QStringLiteral(",\n") + indent) + QStringLiteral("\n  ");
        text.replace(at, span.close - at, insert);
        return at + 1 + indent.size();
    }
    if (span.open >= 0 || rootClose < 0)
        return -1; // the key holds something else, or the text is not an object
    const qsizetype last = lastNonSpace(text, rootClose);
    const bool empty = last >= 0 && text[last] == QLatin1Char('{');
    const QString indent = QStringLiteral("    ");
    const QString insert = (empty ? QStringLiteral("\n  \"") : QStringLiteral(",\n  \"")) + key
        + QStringLiteral("\": [\n") + indent + items.join(QStringLiteral(",\n") + indent) + QStringLiteral("\n  ]")
        + (empty ? QStringLiteral("\n") : QString());
    text.insert(last + 1, insert);
    return last + 1 + insert.indexOf(QLatin1Char('[')) + 2 + indent.size();
}

/// The line of the association an attribution error names ('id'), 0 when none.
int lineOfError(const Model& model, const QString& message)
{
    // "association 'id': ..." first, then an id in a list ("(a, b)") as a whole word.
    for (const Association& a : model.associations)
        if (a.line > 0 && message.contains(QLatin1Char('\'') + a.id + QLatin1Char('\'')))
            return a.line;
    for (const Association& a : model.associations) {
        const QRegularExpression word(
            QStringLiteral("(?<![\\w:.-])%1(?![\\w:.-])").arg(QRegularExpression::escape(a.id)));
        if (a.line > 0 && word.match(message).hasMatch())
            return a.line;
    }
    return 0;
}

} // namespace

SemanticRuleEditor::SemanticRuleEditor(QWidget* parent)
    : QWidget(parent)
    , m_editor(new SemanticCodeEditor(this))
    , m_preview(new SemanticPreviewModel(this))
    , m_debounce(new QTimer(this))
    , m_status(new QLabel(this))
    , m_conservation(new QLabel(this))
    , m_metricBox(new QComboBox(this))
    , m_scopeBox(new QComboBox(this))
    , m_apply(new QPushButton(tr("Apply"), this))
    , m_save(new QPushButton(tr("Save…"), this))
    , m_revert(new QPushButton(tr("Revert"), this))
{
    setWindowTitle(tr("Semantic rules"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    auto* buttons = new QHBoxLayout;
    m_apply->setToolTip(tr("Use the edited model in the semantic views (nothing changes before)"));
    m_revert->setToolTip(tr("Replace the text by the model in use"));
    m_save->setToolTip(tr("Write the JSON to a file"));
    buttons->addWidget(m_apply);
    buttons->addWidget(m_revert);
    buttons->addWidget(m_save);
    buttons->addSpacing(12);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::RichText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    buttons->addWidget(m_status, 1);
    layout->addLayout(buttons);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_editor, 1);
    auto* form = new QGroupBox(tr("Add association"), left);
    buildForm(form);
    leftLayout->addWidget(form);

    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    auto* title = new QLabel(tr("<b>Preview on the open trial</b>"), right);
    controls->addWidget(title);
    controls->addStretch(1);
    controls->addWidget(new QLabel(tr("Metric:"), right));
    controls->addWidget(m_metricBox);
    m_scopeBox->addItem(tr("Total over threads"));
    m_scopeBox->addItem(tr("Mean per thread"));
    controls->addWidget(m_scopeBox);
    rightLayout->addLayout(controls);
    auto* table = new QTreeView;
    ViewSetupOptions options;
    options.placeholder = tr("Filter entities…");
    options.countNoun = tr("entity");
    options.countNounPlural = tr("entities");
    m_setup = std::make_unique<ViewSetup>(setupTreeView(table, m_preview, options));
    table->setRootIsDecorated(false);
    table->setUniformRowHeights(true);
    // The entity tree's order (indented); a header click sorts, e.g. by the change.
    table->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_setup->proxy->sort(-1);
    table->setAlternatingRowColors(true);
    rightLayout->addWidget(m_setup->widget, 1);
    m_conservation->setWordWrap(true);
    m_conservation->setTextFormat(Qt::RichText);
    rightLayout->addWidget(m_conservation);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(debounceMs);
    connect(m_debounce, &QTimer::timeout, this, &SemanticRuleEditor::startPreview);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &SemanticRuleEditor::onTextChanged);
    connect(m_apply, &QPushButton::clicked, this, [this] { apply(); });
    connect(m_save, &QPushButton::clicked, this, [this] { saveInteractively(); });
    connect(m_revert, &QPushButton::clicked, this, [this] {
        if (m_applied)
            setText(QString::fromUtf8(toJson(*m_applied)));
    });
    connect(m_metricBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0)
            m_preview->setMetric(i);
        updateStatus();
    });
    connect(m_scopeBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_preview->setValueScope(
            i == 0 ? SemanticPreviewModel::ValueScope::Total : SemanticPreviewModel::ValueScope::Mean);
        updateStatus();
    });
    updateStatus();
    updateButtons();
}

SemanticRuleEditor::~SemanticRuleEditor() = default;

void SemanticRuleEditor::buildForm(QWidget* form)
{
    auto* grid = new QGridLayout(form);
    grid->setContentsMargins(6, 6, 6, 6);
    m_formId = new QLineEdit(form);
    m_formId->setPlaceholderText(tr("rule-N"));
    m_formSelector = new QComboBox(form);
    for (SelectorKind k : { SelectorKind::Exact, SelectorKind::Regex, SelectorKind::PathRegex, SelectorKind::Group,
             SelectorKind::CallPathParent })
        m_formSelector->addItem(selectorKindName(k), static_cast<int>(k));
    m_formSelector->setCurrentIndex(1);
    m_formValue = new QLineEdit(form);
    m_formValue->setPlaceholderText(tr("e.g. MPI_.*"));
    m_formTargets = new QLineEdit(form);
    m_formTargets->setPlaceholderText(tr("entity id(s), comma-separated"));
    m_formPolicy = new QComboBox(form);
    for (Policy p : { Policy::Direct, Policy::Amortize, Policy::Weighted, Policy::Aggregate })
        m_formPolicy->addItem(policyName(p), static_cast<int>(p));
    m_formWeight = new QLineEdit(form);
    m_formWeight->setPlaceholderText(tr("weight attribute"));
    m_formWeight->setEnabled(false);
    m_formPriority = new QSpinBox(form);
    m_formPriority->setRange(-1000, 1000);
    m_formDeclare = new QCheckBox(tr("Declare missing targets"), form);
    m_formDeclare->setChecked(true);
    auto* insert = new QPushButton(tr("Insert"), form);
    m_formMessage = new QLabel(form);
    m_formMessage->setWordWrap(true);

    grid->addWidget(new QLabel(tr("Select"), form), 0, 0);
    grid->addWidget(m_formSelector, 0, 1);
    grid->addWidget(m_formValue, 0, 2, 1, 3);
    grid->addWidget(new QLabel(tr("Target"), form), 1, 0);
    grid->addWidget(m_formTargets, 1, 1, 1, 2);
    grid->addWidget(m_formDeclare, 1, 3, 1, 2);
    grid->addWidget(new QLabel(tr("Policy"), form), 2, 0);
    grid->addWidget(m_formPolicy, 2, 1);
    grid->addWidget(m_formWeight, 2, 2);
    grid->addWidget(new QLabel(tr("Priority"), form), 2, 3);
    grid->addWidget(m_formPriority, 2, 4);
    grid->addWidget(new QLabel(tr("Id"), form), 3, 0);
    grid->addWidget(m_formId, 3, 1, 1, 2);
    grid->addWidget(insert, 3, 4);
    grid->addWidget(m_formMessage, 4, 0, 1, 5);
    grid->setColumnStretch(2, 1);
    m_formMessage->hide();

    connect(m_formPolicy, &QComboBox::currentIndexChanged, this, [this] {
        m_formWeight->setEnabled(static_cast<Policy>(m_formPolicy->currentData().toInt()) == Policy::Weighted);
    });
    connect(insert, &QPushButton::clicked, this, &SemanticRuleEditor::insertFromForm);
    connect(m_formValue, &QLineEdit::returnPressed, this, &SemanticRuleEditor::insertFromForm);
}

QTreeView* SemanticRuleEditor::previewView() const { return m_setup->view; }

void SemanticRuleEditor::setTrial(TrialPtr trial)
{
    m_trial = std::move(trial);
    m_before.reset();
    m_beforeError.clear();
    ++m_appliedVersion;
    {
        const QSignalBlocker block(m_metricBox);
        const QString keep = m_metricBox->currentText();
        m_metricBox->clear();
        if (m_trial)
            for (const Metric& m : m_trial->metrics())
                m_metricBox->addItem(m.name);
        const int i = m_metricBox->findText(keep);
        m_metricBox->setCurrentIndex(i >= 0 ? i : 0);
        m_preview->setMetric(std::max(0, m_metricBox->currentIndex()));
    }
    ++m_generation; // the same text previews differently now
    m_debounce->stop();
    startPreview();
}

void SemanticRuleEditor::setAppliedModel(const Model& model, bool resetText)
{
    m_applied = model;
    m_before.reset();
    m_beforeError.clear();
    ++m_appliedVersion;
    if (resetText) {
        setText(QString::fromUtf8(toJson(model)));
    } else {
        ++m_generation;
        m_debounce->stop();
        startPreview();
    }
}

void SemanticRuleEditor::setText(const QString& json)
{
    m_editor->setPlainText(json);
    m_debounce->stop();
    startPreview();
}

QString SemanticRuleEditor::text() const { return m_editor->toPlainText(); }

void SemanticRuleEditor::setFileName(const QString& fileName) { m_fileName = fileName; }

bool SemanticRuleEditor::setMetric(const QString& name)
{
    const int i = m_metricBox->findText(name);
    if (i < 0)
        return false;
    m_metricBox->setCurrentIndex(i);
    m_preview->setMetric(i);
    updateStatus();
    return true;
}

void SemanticRuleEditor::setValueScope(SemanticPreviewModel::ValueScope scope)
{
    m_scopeBox->setCurrentIndex(scope == SemanticPreviewModel::ValueScope::Total ? 0 : 1);
}

void SemanticRuleEditor::onTextChanged()
{
    ++m_generation;
    m_debounce->start();
    updateButtons();
}

void SemanticRuleEditor::startPreview()
{
    if (m_job.isRunning()) {
        m_rerun = true;
        return;
    }
    m_rerun = false;
    const quint64 generation = m_generation;
    const QByteArray json = m_editor->toPlainText().toUtf8();
    const QString fileName = m_fileName.isEmpty() ? QStringLiteral("model.json") : QFileInfo(m_fileName).fileName();
    const TrialPtr trial = m_trial;
    const std::optional<Model> applied = m_applied;
    const ProfilePtr before = m_before;
    const quint64 appliedVersion = m_appliedVersion;
    updateButtons();
    m_job.start(
        [=](const std::atomic_bool&) {
            Result r;
            r.generation = generation;
            r.appliedVersion = appliedVersion;
            auto parsed = parseModel(json, fileName);
            if (auto* error = std::get_if<ModelError>(&parsed)) {
                r.error = error->toString();
                r.line = error->line;
                return r;
            }
            r.model = std::get<Model>(std::move(parsed));
            if (!trial) {
                r.ok = true; // parses; nothing to preview on
                return r;
            }
            r.before = before;
            if (!r.before && applied) {
                auto result = attribute(*applied, trial);
                if (auto* error = std::get_if<AttributionError>(&result))
                    r.beforeError = error->message;
                else
                    r.before = std::get<ProfilePtr>(result);
            }
            auto result = attribute(*r.model, trial);
            if (auto* error = std::get_if<AttributionError>(&result)) {
                r.error = tr("%1: cannot be applied to %2: %3").arg(fileName, trial->name(), error->message);
                r.line = lineOfError(*r.model, error->message);
                return r;
            }
            r.after = std::get<ProfilePtr>(result);
            r.data = PreviewData::make(r.before.get(), *r.after);
            r.ok = true;
            return r;
        },
        [this](const Result& result) { onFinished(result); });
}

bool SemanticRuleEditor::isPreviewing() const { return m_job.isRunning() || m_debounce->isActive(); }

void SemanticRuleEditor::waitForPreview()
{
    if (m_debounce->isActive()) {
        m_debounce->stop();
        startPreview();
    }
    while (m_job.isRunning())
        m_job.waitAndDeliver(); // onFinished() may start the next run
}

void SemanticRuleEditor::onFinished(const Result& result)
{
    if (result.appliedVersion == m_appliedVersion && !m_before && result.before) {
        m_before = result.before;
    }
    if (result.appliedVersion == m_appliedVersion && !result.beforeError.isEmpty())
        m_beforeError = result.beforeError;
    const bool current = result.generation == m_generation && result.appliedVersion == m_appliedVersion;
    if (current)
        applyResult(result);
    if (m_rerun || !current) {
        if (!m_debounce->isActive())
            startPreview();
    }
    updateButtons();
}

void SemanticRuleEditor::applyResult(const Result& result)
{
    m_shownGeneration = result.generation;
    m_previewOk = result.ok;
    m_errorMessage = result.error;
    m_errorLine = result.line;
    m_edited = result.model;
    if (!result.ok)
        m_edited.reset();
    m_after = result.after;
    m_editor->setErrorLine(result.ok ? 0 : result.line, result.error);
    if (result.ok)
        m_preview->setPreview(result.data);
    // On an error the last good preview stays, greyed out, so the numbers do not jump while typing.
    m_setup->view->setEnabled(result.ok);
    if (result.ok)
        for (int c = 0; c < SemanticPreviewModel::ColumnCount; ++c)
            m_setup->view->resizeColumnToContents(c);
    updateStatus();
    updateButtons();
    Q_EMIT previewUpdated(result.ok);
}

QString SemanticRuleEditor::conservationText() const
{
    if (!m_previewOk || !m_preview->preview())
        return {};
    const double source = m_preview->sourceTotal();
    const double after = m_preview->attributedAfter();
    const bool ok = std::abs(after - source) <= 1e-9 * std::max(1.0, std::abs(source));
    if (ok)
        return tr("Conservation: Σ own over all entities = Σ source events = %1 ✓").arg(m_preview->formatted(source));
    return tr("Conservation fails: Σ own over all entities = %1, Σ source events = %2 ✗")
        .arg(m_preview->formatted(after), m_preview->formatted(source));
}

void SemanticRuleEditor::updateStatus()
{
    // Until the first preview arrives, and whenever nothing else applies: "Previewing…".
    const bool firstPreview = m_job.isRunning() && m_shownGeneration == 0;
    if (!firstPreview && !m_previewOk && !m_errorMessage.isEmpty()) {
        const QString where = m_errorLine > 0 ? tr("line %1: ").arg(m_errorLine) : QString();
        m_status->setText(QStringLiteral("<span style='color:#b00000'><b>✗ %1</b>%2</span>")
                              .arg(where.toHtmlEscaped(), m_errorMessage.toHtmlEscaped()));
    } else if (!firstPreview && m_previewOk && !m_trial) {
        m_status->setText(tr("✓ The model is valid. Open a trial to preview it."));
    } else if (!firstPreview && m_previewOk) {
        int changed = 0;
        if (const auto& data = m_preview->preview())
            for (int r = 0; r < m_preview->rowCount(); ++r)
                changed += std::abs(m_preview->afterValue(r) - m_preview->beforeValue(r)) > 1e-12
                        || !data->rows[static_cast<std::size_t>(r)].inBefore
                        || !data->rows[static_cast<std::size_t>(r)].inAfter
                    ? 1
                    : 0;
        QString text = QStringLiteral("<span style='color:#1a6b1a'><b>✓</b></span> ")
            + tr("Valid: %1 associations, %2 entities; %3 entities change. Nothing is applied until <b>Apply</b>.")
                  .arg(m_edited ? m_edited->associations.size() : 0)
                  .arg(m_preview->rowCount())
                  .arg(changed);
        if (!m_beforeError.isEmpty())
            text += QStringLiteral("<br>")
                + tr("The model in use cannot be applied to this trial: %1").arg(m_beforeError.toHtmlEscaped());
        else if (!m_applied)
            text += QStringLiteral("<br>") + tr("No model in use yet: 'before' is empty.");
        m_status->setText(text);
    } else {
        m_status->setText(tr("Previewing…"));
    }
    const QString conservation = conservationText();
    m_conservation->setText(conservation.toHtmlEscaped());
    m_conservation->setVisible(!conservation.isEmpty());
}

bool SemanticRuleEditor::canApply() const
{
    return m_previewOk && m_edited && m_shownGeneration == m_generation && !m_debounce->isActive();
}

void SemanticRuleEditor::updateButtons()
{
    m_apply->setEnabled(canApply());
    m_revert->setEnabled(m_applied.has_value());
}

bool SemanticRuleEditor::apply()
{
    if (!canApply())
        return false;
    m_applied = m_edited;
    m_before = m_after;
    m_beforeError.clear();
    ++m_appliedVersion;
    ++m_generation;
    startPreview(); // before = after now: every change becomes 0
    Q_EMIT modelApplied(*m_applied);
    return true;
}

QString SemanticRuleEditor::saveToFile(const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("%1: cannot write: %2").arg(path, file.errorString());
    QByteArray bytes = m_editor->toPlainText().toUtf8();
    if (!bytes.endsWith('\n'))
        bytes += '\n';
    file.write(bytes);
    if (!file.commit())
        return tr("%1: cannot write: %2").arg(path, file.errorString());
    m_fileName = path;
    return {};
}

bool SemanticRuleEditor::saveInteractively()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save semantic model"),
        m_fileName.isEmpty() ? QStringLiteral("model.json") : m_fileName, tr("Semantic model (*.json)"));
    if (path.isEmpty())
        return false;
    const QString error = saveToFile(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Save semantic model"), error);
        return false;
    }
    return true;
}

QString SemanticRuleEditor::insertAssociation(const AssociationDraft& draft)
{
    if (draft.value.isEmpty())
        return tr("The selector needs a value.");
    QStringList targets;
    for (const QString& t : draft.targets)
        if (!t.trimmed().isEmpty() && !targets.contains(t.trimmed()))
            targets << t.trimmed();
    if (targets.isEmpty())
        return tr("The association needs a target entity.");
    if (draft.policy == Policy::Direct && targets.size() != 1)
        return tr("DIRECT needs exactly one target.");
    if (draft.policy == Policy::Weighted && draft.weightAttr.trimmed().isEmpty())
        return tr("WEIGHTED needs a weight attribute.");
    QString text = m_editor->toPlainText();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return tr("Fix the JSON first: %1")
            .arg(parseError.error != QJsonParseError::NoError ? parseError.errorString() : tr("not an object"));
    const QJsonObject root = doc.object();
    if (root.contains(QLatin1String("associations")) && !root.value(QLatin1String("associations")).isArray())
        return tr("'associations' is not an array.");
    if (root.contains(QLatin1String("entities")) && !root.value(QLatin1String("entities")).isArray())
        return tr("'entities' is not an array.");
    QSet<QString> associationIds, entityIds;
    for (const auto& v : root.value(QLatin1String("associations")).toArray())
        associationIds.insert(v.toObject().value(QLatin1String("id")).toString());
    for (const auto& v : root.value(QLatin1String("entities")).toArray())
        entityIds.insert(v.toObject().value(QLatin1String("id")).toString());
    QString id = draft.id.trimmed();
    if (id.isEmpty()) {
        for (int n = static_cast<int>(associationIds.size()) + 1;; ++n) {
            id = QStringLiteral("rule-%1").arg(n);
            if (!associationIds.contains(id))
                break;
        }
    } else if (associationIds.contains(id)) {
        return tr("An association '%1' exists already.").arg(id);
    }

    QJsonObject association;
    association.insert(QStringLiteral("id"), id);
    if (draft.priority != 0)
        association.insert(QStringLiteral("priority"), draft.priority);
    association.insert(QStringLiteral("select"), QJsonObject { { selectorKindName(draft.selector), draft.value } });
    if (targets.size() == 1)
        association.insert(QStringLiteral("target"), targets.front());
    else
        association.insert(QStringLiteral("target"), QJsonArray::fromStringList(targets));
    association.insert(QStringLiteral("policy"), policyName(draft.policy));
    if (draft.policy == Policy::Weighted)
        association.insert(QStringLiteral("weight_attr"), draft.weightAttr.trimmed());

    if (draft.declareMissing) {
        QStringList declarations;
        for (const QString& t : targets)
            if (!entityIds.contains(t))
                declarations << spaced(QJsonObject { { QStringLiteral("id"), t },
                    { QStringLiteral("kind"), QStringLiteral("entity") }, { QStringLiteral("name"), t } });
        if (!declarations.isEmpty() && appendToRootArray(text, QStringLiteral("entities"), declarations) < 0)
            return tr("Cannot find where to declare the entities.");
    }
    const qsizetype at = appendToRootArray(text, QStringLiteral("associations"), { spaced(association) });
    if (at < 0)
        return tr("Cannot find the associations array.");

    // One undoable edit.
    QTextCursor cursor(m_editor->document());
    cursor.beginEditBlock();
    cursor.select(QTextCursor::Document);
    cursor.insertText(text);
    cursor.endEditBlock();
    m_editor->goToLine(static_cast<int>(text.left(at).count(QLatin1Char('\n'))) + 1);
    return {};
}

void SemanticRuleEditor::insertFromForm()
{
    AssociationDraft draft;
    draft.id = m_formId->text();
    draft.selector = static_cast<SelectorKind>(m_formSelector->currentData().toInt());
    draft.value = m_formValue->text();
    draft.targets = m_formTargets->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    draft.policy = static_cast<Policy>(m_formPolicy->currentData().toInt());
    draft.weightAttr = m_formWeight->text();
    draft.priority = m_formPriority->value();
    draft.declareMissing = m_formDeclare->isChecked();
    const QString error = insertAssociation(draft);
    m_formMessage->setText(error.isEmpty() ? tr("Inserted; the preview follows.") : error);
    m_formMessage->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #b00000"));
    m_formMessage->show();
    if (error.isEmpty()) {
        m_formId->clear();
        m_formValue->clear();
    }
}

QString SemanticRuleEditor::render(const QString& fileName, const QSize& size)
{
    waitForPreview();
    return semanticview::renderWidgetToFile(this, fileName, size);
}

} // namespace parallax
