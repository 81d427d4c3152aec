import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * One of the top bar's drop-down menus (a group of pages, or the account): a real button with
 * aria-expanded. Escape closes it and gives the focus back to its button; tabbing out of it or
 * pressing outside it closes it. Which menu is open is the caller's (one at a time).
 */
export function HeaderMenu({
  label,
  buttonContent,
  className,
  current = false,
  open,
  onToggle,
  onClose,
  children,
  testId,
  phoneHeading,
}: {
  /** The button's accessible name. */
  label: string;
  /** What the button shows, when it is not the label itself. */
  buttonContent?: ReactNode;
  className: string;
  /** The page shown is one of this menu's: the button is marked like a current link. */
  current?: boolean;
  open: boolean;
  onToggle: () => void;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  /** Phones show every menu unfolded under "Menu", without its button: this names the group there. */
  phoneHeading?: string;
}) {
  const panelId = useId();
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    function closeOutside(event: PointerEvent) {
      if (event.target instanceof Node && !container.current?.contains(event.target)) onClose();
    }
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open, onClose]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      onClose();
      button.current?.focus();
    }
  }

  return (
    <div
      ref={container}
      className={`header-menu ${className}${open ? ' open' : ''}`}
      data-testid={testId}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        // Tab moved the focus out of the menu (relatedTarget is where it went).
        if (open && event.relatedTarget instanceof Node && !container.current?.contains(event.relatedTarget)) onClose();
      }}
    >
      <button
        ref={button}
        type="button"
        className={current ? 'header-menu-button active' : 'header-menu-button'}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={buttonContent ? label : undefined}
        aria-current={current ? 'true' : undefined}
        onClick={onToggle}
      >
        {buttonContent ?? label}
        <span className="header-menu-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {phoneHeading ? <span className="header-menu-heading">{phoneHeading}</span> : null}
      {/* Always in the page (the phone's Menu shows every panel unfolded); closed, CSS hides it. */}
      <div className="header-menu-panel" id={panelId}>
        {children}
      </div>
    </div>
  );
}
