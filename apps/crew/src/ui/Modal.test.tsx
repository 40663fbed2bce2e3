import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from './ConfirmDialog';

describe('dialogs', () => {
  it('are named by their title, focus Cancel first, keep Tab inside and close on Escape', async () => {
    const onCancel = vi.fn();
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(
      <>
        <button type="button">behind</button>
        <ConfirmDialog
          title="Logout"
          message="Are you sure you want to logout?"
          confirmLabel="Yes"
          onCancel={onCancel}
          onConfirm={onConfirm}
        />
      </>,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Logout' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Yes' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
