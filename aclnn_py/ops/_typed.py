"""What type checkers see of the operator APIs: each registered API's two functions with their
real signatures, re-exported by ``aclnn_py`` under ``if TYPE_CHECKING:`` (``from .ops._typed import
*``). Never imported at run time: there the package loads an operator's module when one of its
names is first used (:mod:`.registry`), so this list costs no start-up.

One line per module of :data:`.registry.APIS`, both phases of each API (``tests/test_import_lazy.py``
holds this file against the registry: a new row needs its names here).
"""

# One statement per module, each name `as` itself: an explicit re-export for mypy --strict (ruff's
# isort would split a statement of `as` imports into one per name).
# isort: off
from .activation.hardswish import (
    aclnnHardswish as aclnnHardswish,
    aclnnHardswishGetWorkspaceSize as aclnnHardswishGetWorkspaceSize,
    aclnnInplaceHardswish as aclnnInplaceHardswish,
    aclnnInplaceHardswishGetWorkspaceSize as aclnnInplaceHardswishGetWorkspaceSize,
)
from .activation.hardswish_backward import (
    aclnnHardswishBackward as aclnnHardswishBackward,
    aclnnHardswishBackwardGetWorkspaceSize as aclnnHardswishBackwardGetWorkspaceSize,
)
from .activation.softmax import (
    aclnnSoftmax as aclnnSoftmax,
    aclnnSoftmaxGetWorkspaceSize as aclnnSoftmaxGetWorkspaceSize,
)
from .conversion.clamp import (
    aclnnClamp as aclnnClamp,
    aclnnClampGetWorkspaceSize as aclnnClampGetWorkspaceSize,
    aclnnClampMax as aclnnClampMax,
    aclnnClampMaxGetWorkspaceSize as aclnnClampMaxGetWorkspaceSize,
    aclnnClampMin as aclnnClampMin,
    aclnnClampMinGetWorkspaceSize as aclnnClampMinGetWorkspaceSize,
)
from .conversion.copy import (
    aclnnInplaceCopy as aclnnInplaceCopy,
    aclnnInplaceCopyGetWorkspaceSize as aclnnInplaceCopyGetWorkspaceSize,
)
from .conversion.fill_scalar import (
    aclnnInplaceFillScalar as aclnnInplaceFillScalar,
    aclnnInplaceFillScalarGetWorkspaceSize as aclnnInplaceFillScalarGetWorkspaceSize,
)
from .index.index_select import (
    aclnnIndexSelect as aclnnIndexSelect,
    aclnnIndexSelectGetWorkspaceSize as aclnnIndexSelectGetWorkspaceSize,
)
from .loss.smooth_l1_loss import (
    aclnnSmoothL1Loss as aclnnSmoothL1Loss,
    aclnnSmoothL1LossGetWorkspaceSize as aclnnSmoothL1LossGetWorkspaceSize,
)
from .loss.smooth_l1_loss_backward import (
    aclnnSmoothL1LossBackward as aclnnSmoothL1LossBackward,
    aclnnSmoothL1LossBackwardGetWorkspaceSize as aclnnSmoothL1LossBackwardGetWorkspaceSize,
)
from .math.add import (
    aclnnAdd as aclnnAdd,
    aclnnAddGetWorkspaceSize as aclnnAddGetWorkspaceSize,
    aclnnAdds as aclnnAdds,
    aclnnAddsGetWorkspaceSize as aclnnAddsGetWorkspaceSize,
    aclnnInplaceAdd as aclnnInplaceAdd,
    aclnnInplaceAddGetWorkspaceSize as aclnnInplaceAddGetWorkspaceSize,
    aclnnInplaceAdds as aclnnInplaceAdds,
    aclnnInplaceAddsGetWorkspaceSize as aclnnInplaceAddsGetWorkspaceSize,
)
from .math.all import aclnnAll as aclnnAll, aclnnAllGetWorkspaceSize as aclnnAllGetWorkspaceSize
from .math.any import aclnnAny as aclnnAny, aclnnAnyGetWorkspaceSize as aclnnAnyGetWorkspaceSize
from .math.cast import aclnnCast as aclnnCast, aclnnCastGetWorkspaceSize as aclnnCastGetWorkspaceSize
from .math.div import (
    aclnnDiv as aclnnDiv,
    aclnnDivGetWorkspaceSize as aclnnDivGetWorkspaceSize,
    aclnnDivs as aclnnDivs,
    aclnnDivsGetWorkspaceSize as aclnnDivsGetWorkspaceSize,
    aclnnInplaceDiv as aclnnInplaceDiv,
    aclnnInplaceDivGetWorkspaceSize as aclnnInplaceDivGetWorkspaceSize,
    aclnnInplaceDivs as aclnnInplaceDivs,
    aclnnInplaceDivsGetWorkspaceSize as aclnnInplaceDivsGetWorkspaceSize,
)
from .math.eq_scalar import (
    aclnnEqScalar as aclnnEqScalar,
    aclnnEqScalarGetWorkspaceSize as aclnnEqScalarGetWorkspaceSize,
    aclnnInplaceEqScalar as aclnnInplaceEqScalar,
    aclnnInplaceEqScalarGetWorkspaceSize as aclnnInplaceEqScalarGetWorkspaceSize,
)
from .math.eq_tensor import (
    aclnnEqTensor as aclnnEqTensor,
    aclnnEqTensorGetWorkspaceSize as aclnnEqTensorGetWorkspaceSize,
    aclnnInplaceEqTensor as aclnnInplaceEqTensor,
    aclnnInplaceEqTensorGetWorkspaceSize as aclnnInplaceEqTensorGetWorkspaceSize,
)
from .math.ge_scalar import (
    aclnnGeScalar as aclnnGeScalar,
    aclnnGeScalarGetWorkspaceSize as aclnnGeScalarGetWorkspaceSize,
    aclnnInplaceGeScalar as aclnnInplaceGeScalar,
    aclnnInplaceGeScalarGetWorkspaceSize as aclnnInplaceGeScalarGetWorkspaceSize,
)
from .math.ge_tensor import (
    aclnnGeTensor as aclnnGeTensor,
    aclnnGeTensorGetWorkspaceSize as aclnnGeTensorGetWorkspaceSize,
    aclnnInplaceGeTensor as aclnnInplaceGeTensor,
    aclnnInplaceGeTensorGetWorkspaceSize as aclnnInplaceGeTensorGetWorkspaceSize,
)
from .math.gt_scalar import (
    aclnnGtScalar as aclnnGtScalar,
    aclnnGtScalarGetWorkspaceSize as aclnnGtScalarGetWorkspaceSize,
    aclnnInplaceGtScalar as aclnnInplaceGtScalar,
    aclnnInplaceGtScalarGetWorkspaceSize as aclnnInplaceGtScalarGetWorkspaceSize,
)
from .math.gt_tensor import (
    aclnnGtTensor as aclnnGtTensor,
    aclnnGtTensorGetWorkspaceSize as aclnnGtTensorGetWorkspaceSize,
    aclnnInplaceGtTensor as aclnnInplaceGtTensor,
    aclnnInplaceGtTensorGetWorkspaceSize as aclnnInplaceGtTensorGetWorkspaceSize,
)
from .math.le_scalar import (
    aclnnInplaceLeScalar as aclnnInplaceLeScalar,
    aclnnInplaceLeScalarGetWorkspaceSize as aclnnInplaceLeScalarGetWorkspaceSize,
    aclnnLeScalar as aclnnLeScalar,
    aclnnLeScalarGetWorkspaceSize as aclnnLeScalarGetWorkspaceSize,
)
from .math.le_tensor import (
    aclnnInplaceLeTensor as aclnnInplaceLeTensor,
    aclnnInplaceLeTensorGetWorkspaceSize as aclnnInplaceLeTensorGetWorkspaceSize,
    aclnnLeTensor as aclnnLeTensor,
    aclnnLeTensorGetWorkspaceSize as aclnnLeTensorGetWorkspaceSize,
)
from .math.lt_scalar import (
    aclnnInplaceLtScalar as aclnnInplaceLtScalar,
    aclnnInplaceLtScalarGetWorkspaceSize as aclnnInplaceLtScalarGetWorkspaceSize,
    aclnnLtScalar as aclnnLtScalar,
    aclnnLtScalarGetWorkspaceSize as aclnnLtScalarGetWorkspaceSize,
)
from .math.lt_tensor import (
    aclnnInplaceLtTensor as aclnnInplaceLtTensor,
    aclnnInplaceLtTensorGetWorkspaceSize as aclnnInplaceLtTensorGetWorkspaceSize,
    aclnnLtTensor as aclnnLtTensor,
    aclnnLtTensorGetWorkspaceSize as aclnnLtTensorGetWorkspaceSize,
)
from .math.maximum import aclnnMaximum as aclnnMaximum, aclnnMaximumGetWorkspaceSize as aclnnMaximumGetWorkspaceSize
from .math.minimum import aclnnMinimum as aclnnMinimum, aclnnMinimumGetWorkspaceSize as aclnnMinimumGetWorkspaceSize
from .math.mul import (
    aclnnInplaceMul as aclnnInplaceMul,
    aclnnInplaceMulGetWorkspaceSize as aclnnInplaceMulGetWorkspaceSize,
    aclnnInplaceMuls as aclnnInplaceMuls,
    aclnnInplaceMulsGetWorkspaceSize as aclnnInplaceMulsGetWorkspaceSize,
    aclnnMul as aclnnMul,
    aclnnMulGetWorkspaceSize as aclnnMulGetWorkspaceSize,
    aclnnMuls as aclnnMuls,
    aclnnMulsGetWorkspaceSize as aclnnMulsGetWorkspaceSize,
)
from .math.ne_scalar import (
    aclnnInplaceNeScalar as aclnnInplaceNeScalar,
    aclnnInplaceNeScalarGetWorkspaceSize as aclnnInplaceNeScalarGetWorkspaceSize,
    aclnnNeScalar as aclnnNeScalar,
    aclnnNeScalarGetWorkspaceSize as aclnnNeScalarGetWorkspaceSize,
)
from .math.ne_tensor import (
    aclnnInplaceNeTensor as aclnnInplaceNeTensor,
    aclnnInplaceNeTensorGetWorkspaceSize as aclnnInplaceNeTensorGetWorkspaceSize,
    aclnnNeTensor as aclnnNeTensor,
    aclnnNeTensorGetWorkspaceSize as aclnnNeTensorGetWorkspaceSize,
)
from .math.ones import (
    aclnnInplaceOne as aclnnInplaceOne,
    aclnnInplaceOneGetWorkspaceSize as aclnnInplaceOneGetWorkspaceSize,
)
from .math.reduce_sum import (
    aclnnReduceSum as aclnnReduceSum,
    aclnnReduceSumGetWorkspaceSize as aclnnReduceSumGetWorkspaceSize,
)
from .math.sign import aclnnSign as aclnnSign, aclnnSignGetWorkspaceSize as aclnnSignGetWorkspaceSize
from .math.sub import (
    aclnnInplaceSub as aclnnInplaceSub,
    aclnnInplaceSubGetWorkspaceSize as aclnnInplaceSubGetWorkspaceSize,
    aclnnInplaceSubs as aclnnInplaceSubs,
    aclnnInplaceSubsGetWorkspaceSize as aclnnInplaceSubsGetWorkspaceSize,
    aclnnSub as aclnnSub,
    aclnnSubGetWorkspaceSize as aclnnSubGetWorkspaceSize,
    aclnnSubs as aclnnSubs,
    aclnnSubsGetWorkspaceSize as aclnnSubsGetWorkspaceSize,
)
from .math.zero import (
    aclnnInplaceZero as aclnnInplaceZero,
    aclnnInplaceZeroGetWorkspaceSize as aclnnInplaceZeroGetWorkspaceSize,
)
from .vfusion.scaled_masked_softmax import (
    aclnnScaledMaskedSoftmax as aclnnScaledMaskedSoftmax,
    aclnnScaledMaskedSoftmaxGetWorkspaceSize as aclnnScaledMaskedSoftmaxGetWorkspaceSize,
)
from .vfusion.scaled_masked_softmax_backward import (
    aclnnScaledMaskedSoftmaxBackward as aclnnScaledMaskedSoftmaxBackward,
    aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize as aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize,
)
# isort: on
