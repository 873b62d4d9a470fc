import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

interface FieldInfo {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

function FieldShell({ id, label, error, hint, children }: FieldInfo & { children: ReactNode }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy({ id, error, hint }: FieldInfo) {
  if (error) return { 'aria-invalid': true, 'aria-describedby': `${id}-error` };
  return hint ? { 'aria-describedby': `${id}-hint` } : {};
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & FieldInfo;

export function TextField({ id, label, error, hint, className, ...input }: TextFieldProps) {
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        className={`input ${className ?? ''}`}
        {...describedBy({ id, label, error, hint })}
        {...input}
      />
    </FieldShell>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & FieldInfo;

export function SelectField({ id, label, error, hint, className, children, ...select }: SelectFieldProps) {
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <select
        id={id}
        className={`input select ${className ?? ''}`}
        {...describedBy({ id, label, error, hint })}
        {...select}
      >
        {children}
      </select>
    </FieldShell>
  );
}
